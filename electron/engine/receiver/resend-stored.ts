// Resend without a running receiver (`hookloop resend`): a captured request of a data folder sent
// to a target once, the leg stored in the same folder through a capture writer of its own, as the
// receiver would store it. The receiver's own resend() is the same resendRequest on its forwarder.
import type { Database } from 'better-sqlite3'
import type { Clock } from '../../../shared/clock'
import { DEFAULT_BODY_LIMIT, DefinitionError } from '../../../shared/receiver'
import type { ForwardLeg } from '../../../shared/receiver'
import { createEndpointStore, createSqliteEngine, secretBoxOf, encodeLeg, createIdClaims, createRequestStore, createIdSource } from '../store'
import { createCaptureWriter } from './capture-writer'
import { createForwarder } from './forward'
import { toRequestRecord } from './records'
import { resendRequest, type ResendOptions } from './resend'

export async function resendStored(db: Database, clock: Clock, requestId: number, options: ResendOptions): Promise<ForwardLeg> {
  const row = createRequestStore(db).get(requestId)
  if (!row) throw new DefinitionError('requestId', `no captured request with id ${requestId} in this data folder`)
  const request = toRequestRecord(row)
  const endpoint = request.endpointId ? ((await createEndpointStore(createSqliteEngine(db, { closeDatabase: false }), secretBoxOf(db)).get(request.endpointId)) ?? null) : null
  let storeError: Error | null = null
  const writer = createCaptureWriter({ db, onError: (error) => (storeError ??= error) })
  const legIds = createIdSource(createIdClaims(db, 'forward_legs'))
  const forwarder = createForwarder({
    clock,
    defaultBodyLimit: endpoint?.bodyLimit ?? DEFAULT_BODY_LIMIT,
    record: (leg, bodyCaptured) => {
      const id = legIds.next()
      writer.leg(encodeLeg({ ...leg, id }, bodyCaptured))
      return id
    },
  })
  let leg: ForwardLeg
  try {
    leg = await resendRequest(forwarder, request, endpoint, options)
  } catch (error) {
    await forwarder.close()
    writer.close()
    throw error
  }
  await forwarder.close()
  writer.close() // commits the leg; throws if it cannot be stored
  legIds.release()
  if (storeError) throw storeError
  return leg
}
