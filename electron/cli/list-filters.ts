// The filters `hookloop requests`, `hookloop deliveries` and `hookloop export` share: their
// options, and their values read into the typed filters of store/list-reads.ts (a slug or name
// resolved to its id, a duration or ISO time to a wall time), each bad value a usage error naming it.
import { DELIVERY_STATUSES, LIST_LIMIT_MAX, REQUEST_STATUSES, type DeliveryListFilter, type DeliveryStatus, type ListReads, type RequestListFilter, type RequestStatus } from '../engine/store'
import { UsageError } from './usage-error'

export const LIST_FILTER_OPTIONS = {
  endpoint: { type: 'string' },
  subscription: { type: 'string' },
  'event-id': { type: 'string' },
  status: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
} as const

export interface ListFilterValues {
  endpoint?: string
  subscription?: string
  'event-id'?: string
  status?: string
  since?: string
  limit?: string
}

export const DEFAULT_LIST_LIMIT = 50

export const REQUEST_FILTER_HELP = `  --endpoint E      an endpoint's slug or id
  --event-id P      event ids (dedupe keys) that start with P, in any ASCII case
  --status S        ${REQUEST_STATUSES.join(', ')} (comma-separated: any of them)
                    valid/invalid/none: the signature verdict (none = not verified),
                    duplicate: a duplicate arrival, refused: refused by the receiver (413, 503 …)
  --since T         from T on, on the wall clock: a duration back from now (90s, 15m, 2h, 7d, 2w) or an ISO time`

export const DELIVERY_FILTER_HELP = `  --endpoint E      deliveries made to our endpoint E (slug or id)
  --subscription S  a subscription's name or id
  --event-id P      event ids that start with P, in any ASCII case
  --status S        ${DELIVERY_STATUSES.join(', ')} (comma-separated: any of them)
  --since T         created from T on, on the wall clock: a duration back from now (90s, 15m, 2h, 7d, 2w) or an ISO time`

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

function parseLimit(command: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIST_LIMIT
  if (!/^\d{1,7}$/.test(text.trim()) || Number(text) < 1 || Number(text) > LIST_LIMIT_MAX) throw new UsageError(`${command}: --limit takes a whole number from 1 to ${LIST_LIMIT_MAX}; "${text}" is not one`)
  return Number(text)
}

function parseStatuses<S extends string>(command: string, text: string | undefined, words: readonly S[]): S[] | undefined {
  if (text === undefined) return undefined
  const given = text.split(',').map((w) => w.trim().toLowerCase()).filter(Boolean)
  if (given.length === 0) throw new UsageError(`${command}: --status takes ${words.join(', ')}; it was empty`)
  for (const word of given) if (!(words as readonly string[]).includes(word)) throw new UsageError(`${command}: --status "${word}" is not one of ${words.join(', ')}`)
  return given as S[]
}

function endpointId(command: string, reads: ListReads, text: string | undefined, dataDir: string): string | undefined {
  if (text === undefined) return undefined
  const endpoint = reads.endpointOf(text)
  if (!endpoint) throw new UsageError(`${command}: no endpoint "${text}" (slug or id) in ${dataDir}`)
  return endpoint.id
}

function eventIdPrefix(command: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  if (text.trim() === '') throw new UsageError(`${command}: --event-id is empty; give the start of an event id`)
  return text.trim()
}

export function requestFilter(command: string, reads: ListReads, values: ListFilterValues, dataDir: string, now: number, limit = parseLimit(command, values.limit)): RequestListFilter {
  if (values.subscription !== undefined) throw new UsageError(`${command}: --subscription filters deliveries; captured requests take --endpoint`)
  const statuses = parseStatuses<RequestStatus>(command, values.status, REQUEST_STATUSES)
  const id = endpointId(command, reads, values.endpoint, dataDir)
  const prefix = eventIdPrefix(command, values['event-id'])
  return {
    limit,
    ...(id === undefined ? {} : { endpointId: id }),
    ...(prefix === undefined ? {} : { eventIdPrefix: prefix }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(values.since === undefined ? {} : { sinceWall: parseSince(command, values.since, now) }),
  }
}

export function deliveryFilter(command: string, reads: ListReads, values: ListFilterValues, dataDir: string, now: number, limit = parseLimit(command, values.limit)): DeliveryListFilter {
  const statuses = parseStatuses<DeliveryStatus>(command, values.status, DELIVERY_STATUSES)
  const id = endpointId(command, reads, values.endpoint, dataDir)
  let subscriptionId: string | undefined
  if (values.subscription !== undefined) {
    const found = reads.subscriptionOf(values.subscription)
    if (found === undefined) throw new UsageError(`${command}: no subscription "${values.subscription}" (name or id) in ${dataDir}`)
    if (found === 'ambiguous') throw new UsageError(`${command}: more than one subscription is named "${values.subscription}"; give its id (hookloop deliveries shows it)`)
    subscriptionId = found.id
  }
  const prefix = eventIdPrefix(command, values['event-id'])
  return {
    limit,
    ...(id === undefined ? {} : { endpointId: id }),
    ...(subscriptionId === undefined ? {} : { subscriptionId }),
    ...(prefix === undefined ? {} : { eventIdPrefix: prefix }),
    ...(statuses === undefined ? {} : { statuses }),
    ...(values.since === undefined ? {} : { sinceWall: parseSince(command, values.since, now) }),
  }
}

/** Whether any filter was given (export: a filter selects, as --requests or --all does). */
export function anyListFilter(values: ListFilterValues): boolean {
  return (['endpoint', 'subscription', 'event-id', 'status', 'since', 'limit'] as const).some((k) => values[k] !== undefined)
}
