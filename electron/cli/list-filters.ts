// The filters `hookloop requests`, `hookloop deliveries` and `hookloop export` share: their
// options, and their values read into the typed filters of store/list-reads.ts (a slug or name
// resolved to its id, a duration or ISO time to a wall time), each bad value a usage error naming it.
import type { CommandRequest } from '../../shared/contract'
import { LIST_LIMIT_MAX, type DeliveryListFilter, type DeliveryStatus, type ListReads, type RequestListFilter, type RequestStatus } from '../engine/store'
import type { OptionSpecs } from './command-args'
import { UsageError } from './usage-error'

/** The filters every list takes; each command adds its --status words and --limit. */
export const LIST_FILTER_OPTIONS = {
  endpoint: { type: 'string', value: 'E', help: "captured at, or (deliveries) made to, our endpoint E: its slug or id" },
  subscription: { type: 'string', value: 'S', help: "deliveries only: a subscription's name or id" },
  'event-id': { type: 'string', value: 'P', help: "event ids that start with P, in any ASCII case: a request's dedupe key; a delivery's id as its consumer saw it (a provider's evt_…, X-GitHub-Delivery …) or Hookloop's own" },
  since: { type: 'string', value: 'T', help: 'stored from T on, on the wall clock, whatever clock a row ran on (a simulation\'s rows too): a duration back from now (90s, 15m, 2h, 7d, 2w) or an ISO time' },
} as const satisfies OptionSpecs

export const LIMIT_OPTION = { type: 'number', whole: true, min: 1, max: LIST_LIMIT_MAX, value: 'N', help: 'at most N rows, newest first' } as const

export const REQUEST_STATUS_HELP = 'comma-separated: a row matches any of them; valid/invalid/none: the signature verdict (none = not verified), duplicate: a duplicate arrival, refused: refused by the receiver (413, 503 …); schema-valid/schema-invalid/schema-none: the body against its provider\'s published schema (docs/receiver.md, "Schema verdict")'

export interface ListFilterValues {
  endpoint?: string | undefined
  subscription?: string | undefined
  'event-id'?: string | undefined
  status?: readonly string[] | undefined
  since?: string | undefined
  limit?: number | undefined
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** "15m" → now − 15 minutes; an ISO time (a date, or a date and time) → that instant. */
export function parseSince(command: string, text: string, now: number): number {
  const trimmed = text.trim()
  const duration = /^(\d{1,7})([smhdw])$/.exec(trimmed)
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2]!]!
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) {
    const at = Date.parse(trimmed)
    if (Number.isFinite(at)) return at
  }
  throw new UsageError(`${command}: --since takes a duration like 90s, 15m, 2h, 7d or 2w, or an ISO time like 2026-12-01T09:30:00Z; "${text}" is neither`)
}

async function endpointId(command: string, reads: ListReads, text: string | undefined, dataDir: string): Promise<string | undefined> {
  if (text === undefined) return undefined
  const endpoint = await reads.endpointOf(text)
  if (!endpoint) throw new UsageError(`${command}: no endpoint "${text}" (slug or id) in ${dataDir}`)
  return endpoint.id
}

function eventIdPrefix(command: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  if (text.trim() === '') throw new UsageError(`${command}: --event-id is empty; give the start of an event id`)
  return text.trim()
}

// The declarations checked the --status words; without --limit a list holds every match.
export async function requestFilter(command: string, reads: ListReads, values: ListFilterValues, dataDir: string, now: number): Promise<RequestListFilter> {
  if (values.subscription !== undefined) throw new UsageError(`${command}: --subscription filters deliveries; captured requests take --endpoint`)
  const statuses = values.status as RequestStatus[] | undefined
  const id = await endpointId(command, reads, values.endpoint, dataDir)
  const prefix = eventIdPrefix(command, values['event-id'])
  return {
    limit: values.limit ?? LIST_LIMIT_MAX,
    ...(id === undefined ? {} : { endpointId: id }),
    ...(prefix === undefined ? {} : { eventIdPrefix: prefix }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(values.since === undefined ? {} : { sinceWall: parseSince(command, values.since, now) }),
  }
}

export async function deliveryFilter(command: string, reads: ListReads, values: ListFilterValues, dataDir: string, now: number): Promise<DeliveryListFilter> {
  const statuses = values.status as DeliveryStatus[] | undefined
  const id = await endpointId(command, reads, values.endpoint, dataDir)
  let subscriptionId: string | undefined
  if (values.subscription !== undefined) {
    const found = await reads.subscriptionOf(values.subscription)
    if (found === undefined) throw new UsageError(`${command}: no subscription "${values.subscription}" (name or id) in ${dataDir}`)
    if (found === 'ambiguous') throw new UsageError(`${command}: more than one subscription is named "${values.subscription}"; give its id (hookloop deliveries shows it)`)
    subscriptionId = found.id
  }
  const prefix = eventIdPrefix(command, values['event-id'])
  return {
    limit: values.limit ?? LIST_LIMIT_MAX,
    ...(id === undefined ? {} : { endpointId: id }),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
    ...(prefix === undefined ? {} : { eventIdPrefix: prefix }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(values.since === undefined ? {} : { sinceWall: parseSince(command, values.since, now) }),
  }
}

/**
 * The same filters for a served Hookloop (`--server`): checked here as for a store, the time read
 * on this machine's clock, the endpoint and subscription named as given (the server resolves them).
 */
export function remoteRequestFilter(command: string, values: ListFilterValues, now: number): CommandRequest<'request.list'> {
  if (values.subscription !== undefined) throw new UsageError(`${command}: --subscription filters deliveries; captured requests take --endpoint`)
  return remoteCommon(command, values, now, values.status as RequestStatus[] | undefined)
}

export function remoteDeliveryFilter(command: string, values: ListFilterValues, now: number): CommandRequest<'delivery.list'> {
  return {
    ...remoteCommon(command, values, now, values.status as DeliveryStatus[] | undefined),
    ...(values.subscription === undefined ? {} : { subscription: values.subscription }),
  }
}

function remoteCommon<S>(command: string, values: ListFilterValues, now: number, statuses: S[] | undefined) {
  const prefix = eventIdPrefix(command, values['event-id'])
  return {
    limit: values.limit ?? LIST_LIMIT_MAX,
    ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
    ...(prefix === undefined ? {} : { eventIdPrefix: prefix }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(values.since === undefined ? {} : { sinceWall: parseSince(command, values.since, now) }),
  }
}

/** Whether any filter was given (export: a filter selects, as --requests or --all does). */
export function anyListFilter(values: ListFilterValues): boolean {
  return (['endpoint', 'subscription', 'event-id', 'status', 'since', 'limit'] as const).some((k) => values[k] !== undefined)
}
