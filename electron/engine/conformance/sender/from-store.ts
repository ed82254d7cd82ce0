// The sender conformance check over a Hookloop data folder: an endpoint's captured requests
// read from the store, judged against a policy.
import type { Database } from 'better-sqlite3'
import { DEFAULT_SENDER_TOLERANCE, type SenderConformanceReport, type SenderTolerance } from '../../../../shared/conformance'
import type { Policy } from '../../../../shared/sender'
import { endpointPath } from '../../../../shared/receiver'
import { toRequestRecord } from '../../receiver'
import { createEndpointStore, createRequestStore, createSqliteEngine, secretBoxOf } from '../../store'
import { evaluateSenderConformance } from './evaluate'

export interface CheckSenderOptions {
  /** The endpoint's slug. */
  endpoint: string
  policy: Policy
  tolerance?: Partial<SenderTolerance>
  /** "Now" for the verdicts: an attempt not yet due by then is pending, one overdue is missing. */
  asOf: number
}

export class UnknownEndpointError extends Error {
  override readonly name = 'UnknownEndpointError'
}

export async function checkSenderConformance(db: Database, options: CheckSenderOptions): Promise<SenderConformanceReport> {
  const endpoint = await createEndpointStore(createSqliteEngine(db, { closeDatabase: false }), secretBoxOf(db)).getBySlug(options.endpoint)
  if (!endpoint) throw new UnknownEndpointError(`no endpoint answers at ${endpointPath(options.endpoint)} in this data folder`)
  const reads = createRequestStore(db)
  const requests = reads.byEndpoint(endpoint.id).map(toRequestRecord)
  return evaluateSenderConformance({
    endpoint: endpoint.slug,
    requests,
    policy: options.policy,
    tolerance: { ...DEFAULT_SENDER_TOLERANCE, ...options.tolerance },
    asOf: options.asOf,
    lookupPath: (path, from, to) => reads.atPath(path, from, to ?? Number.MAX_SAFE_INTEGER).map(toRequestRecord),
  })
}
