// Dedupe: take the key a request carries (header, body field or template over body fields) and
// number its arrivals inside the endpoint's window (fixed from the first arrival, like a
// `SET key NX EX window`). The numbering lives in memory for speed and is checked against the
// store for keys seen before (in an earlier run, or by another process on the same folder). Keys are bounded: past KEY_MAX_BYTES (or when not UTF-8)
// a key is kept and compared as its SHA-256 digest, with a mark saying so.
import { createHash } from 'node:crypto'
import { isUtf8 } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import { parseJsonPath, parseTemplate, readJsonPath, type DedupeKey, type Endpoint, type JsonPath } from '../../../shared/receiver'
import type { DedupeKeyMark } from '../../../shared/receiver'
import { bodyEventIdPaths, eventIdHeadersOf, findEventId, PROVIDERS } from '../../../shared/providers'
import type { KeyGroup, RequestStore } from '../store'
import { KEY_MAX_BYTES } from './dedupe-limits'
import { KeyBytes, JsonNumberText } from './json-document'

export { KEY_MAX_BYTES } from './dedupe-limits'

/** A compiled key extractor: headers + the body's (sparse) JSON document → the key, or null when absent. */
export type KeyExtractor = ((headers: IncomingHttpHeaders, json: () => unknown) => string | KeyBytes | null) & {
  /** The body fields it reads (empty for a header key). */
  paths: JsonPath[]
  /** An automatic key: the key and where it was found (a header's name, `body.event_id` …). */
  found?: (headers: IncomingHttpHeaders, json: () => unknown) => { value: string | KeyBytes; where: string } | null
}

// Every pack's id header, read once: the automatic key tries them before the body.
let autoHeaders: string[] | undefined
const AUTO_PATHS: JsonPath[] = bodyEventIdPaths()

function firstHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** A key as stored: itself, or its digest with a mark. */
export interface BoundedKey {
  key: string
  mark: DedupeKeyMark | null
}

function scalar(value: unknown): string | KeyBytes | null {
  if (typeof value === 'string') return value === '' ? null : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value instanceof JsonNumberText) return value.text
  if (value instanceof KeyBytes) return value.bytes.length === 0 ? null : value
  return null
}

const withPaths = (fn: (headers: IncomingHttpHeaders, json: () => unknown) => string | KeyBytes | null, paths: JsonPath[]): KeyExtractor =>
  Object.assign(fn, { paths })

export function compileKeyExtractor(key: DedupeKey): KeyExtractor {
  switch (key.type) {
    case 'auto': {
      autoHeaders ??= eventIdHeadersOf(Object.values(PROVIDERS))
      const headerList = autoHeaders
      const found = (headers: IncomingHttpHeaders, json: () => unknown) => findEventId(headerList, (name) => firstHeader(headers, name), json, scalar)
      return Object.assign((headers: IncomingHttpHeaders, json: () => unknown) => found(headers, json)?.value ?? null, { paths: AUTO_PATHS, found })
    }
    case 'header': {
      const name = key.name.toLowerCase()
      return withPaths((headers) => {
        const value = headers[name]
        const first = Array.isArray(value) ? value[0] : value
        return first === undefined || first.trim() === '' ? null : first.trim()
      }, [])
    }
    case 'json-path': {
      const path = parseJsonPath(key.path)
      return withPaths((_headers, json) => scalar(readJsonPath(json(), path)), [path])
    }
    case 'template': {
      const pieces = parseTemplate(key.template)
      return withPaths(
        (_headers, json) => {
          const body = json()
          const parts: (string | KeyBytes)[] = []
          for (const piece of pieces) {
            if (typeof piece === 'string') {
              parts.push(piece)
              continue
            }
            // Every placeholder must resolve: a partial key would merge unrelated events.
            const value = scalar(readJsonPath(body, piece as JsonPath))
            if (value === null) return null
            parts.push(value)
          }
          if (parts.every((p) => typeof p === 'string')) return parts.join('')
          return new KeyBytes(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p.bytes))))
        },
        pieces.filter((p): p is JsonPath => typeof p !== 'string'),
      )
    }
    default: {
      const never: never = key
      return never
    }
  }
}

/**
 * The key as stored and compared: its exact bytes (header values are Latin-1 as Node reads them),
 * or their SHA-256 when longer than KEY_MAX_BYTES or not valid UTF-8 (two different invalid keys
 * stay two keys).
 */
export function boundKey(value: string | KeyBytes, headerKey = false): BoundedKey {
  // The usual key (an ASCII id of a few dozen characters) is its own bytes, valid UTF-8 and short:
  // kept as it is without encoding it.
  if (typeof value === 'string' && value.length <= KEY_MAX_BYTES && isAscii(value)) return { key: value, mark: null }
  const bytes = value instanceof KeyBytes ? value.bytes : Buffer.from(value, headerKey ? 'latin1' : 'utf8')
  const tooLong = bytes.length > KEY_MAX_BYTES
  if (!tooLong && isUtf8(bytes)) return { key: value instanceof KeyBytes ? bytes.toString('utf8') : value, mark: null }
  return {
    key: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    mark: { reason: tooLong ? 'too_long' : 'not_utf8', bytes: bytes.length },
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

export interface KeyArrival {
  /** 1 for the first arrival of the key in its window, 2 for dup #2 … */
  number: number
  /** The first arrival's request id, null for a first arrival. */
  duplicateOf: number | null
}

/**
 * When a request arrived: on its own clock (`clock`: 'wall' for real traffic, or the simulated
 * clock a linked request follows) and on the wall. A window compares two arrivals on their own
 * clock when they share it, else on the wall: never a time of one clock against the other's.
 */
export interface ArrivalTime {
  clock: 'wall' | object
  at: number
  wallAt: number
}

export interface DedupeTracker {
  /** The arrival's number: at once on a data folder; a Promise when the store must be asked over the network (a team's PostgreSQL). */
  arrive(endpoint: Endpoint, key: BoundedKey, requestId: number, time: ArrivalTime): KeyArrival | Promise<KeyArrival>
  /** Forget an endpoint's keys (its window or key definition changed). */
  forget(endpointId: string): void
}

// Bounded so a flood of unique keys cannot grow memory without end; the oldest groups go first
// and are read back from the store if they show up again (long committed by then).
const MAX_CACHED_GROUPS = 100_000

/**
 * startMaxId: the highest request id when the receiver started. A key missing from memory can
 * only be in the store if the endpoint had keyed rows before that, memory dropped some groups, or
 * another process captures into the same folder (othersCapture); otherwise the store lookup is
 * skipped (it is most of the cost of a never-seen key).
 */
/** A group in memory: its first arrival's clock is known ('stored' for one read back: its clock is no longer running). */
type CachedGroup = Omit<KeyGroup, 'firstOnWall'> & { endpointId: string; firstClock: ArrivalTime['clock'] | 'stored' }

/** Time since the group's first arrival, on one clock. */
function sinceFirst(group: CachedGroup, time: ArrivalTime): number {
  return group.firstClock === time.clock ? time.at - group.firstAt : time.wallAt - group.firstWallAt
}

/**
 * readStore: how a team's PostgreSQL is asked for a key's group (store/requests.ts readKeyGroup);
 * given, every keyed arrival awaits it and `store` is not read.
 */
export function createDedupeTracker(store: Pick<RequestStore, 'keyGroup' | 'hasKeyedRows'>, startMaxId: number, othersCapture: () => boolean = () => false, readStore?: (endpointId: string, key: string, digest: boolean) => Promise<KeyGroup | undefined>): DedupeTracker {
  const groups = new Map<string, CachedGroup>()
  const storeMayKnow = new Map<string, boolean>()
  let dropped = false
  const mayBeStored = (endpointId: string): boolean => {
    if (dropped || othersCapture()) return true
    let known = storeMayKnow.get(endpointId)
    if (known === undefined) {
      known = store.hasKeyedRows(endpointId, startMaxId)
      storeMayKnow.set(endpointId, known)
    }
    return known
  }
  function number(endpoint: Endpoint, cacheKey: string, stored: KeyGroup | undefined, requestId: number, time: ArrivalTime): KeyArrival {
    let group = groups.get(cacheKey)
    // The store's group is taken when it is further on in the same group, or a group begun after
    // the one in memory; never an older group whose last rows are committed after a new one began here.
    const further = (known: CachedGroup, found: KeyGroup) => (found.firstId === known.firstId ? found.count > known.count : found.firstWallAt > known.firstWallAt)
    if (stored && (!group || further(group, stored))) {
      group = { firstId: stored.firstId, firstAt: stored.firstAt, firstWallAt: stored.firstWallAt, count: stored.count, endpointId: endpoint.id, firstClock: stored.firstOnWall ? 'wall' : 'stored' }
    }
    if (group && sinceFirst(group, time) <= endpoint.dedupeWindowMs) {
      group.count += 1
      groups.delete(cacheKey) // re-insert: Map order doubles as least-recently-seen order
      groups.set(cacheKey, group)
      return { number: group.count, duplicateOf: group.firstId }
    }
    groups.delete(cacheKey)
    groups.set(cacheKey, { firstId: requestId, firstAt: time.at, firstWallAt: time.wallAt, firstClock: time.clock, count: 1, endpointId: endpoint.id })
    if (groups.size > MAX_CACHED_GROUPS) {
      const oldest = groups.keys().next()
      if (!oldest.done) groups.delete(oldest.value)
      dropped = true
    }
    return { number: 1, duplicateOf: null }
  }
  return {
    arrive(endpoint, key, requestId, time) {
      // A digest and a key that spells the same text are different keys; long keys are cached
      // by their hash so 100 000 groups stay a few megabytes.
      const text = key.key.length > 64 ? createHash('sha256').update(key.key).digest('base64') : key.key
      const cacheKey = `${endpoint.id}\u0000${key.mark ? 'd' : 'k'}${key.key.length > 64 ? 'h' : '='}${text}`
      // On a team's store every keyed arrival asks the server: memory is read again once it
      // answers, as another arrival of the key in this process may have been numbered meanwhile.
      if (readStore) return readStore(endpoint.id, key.key, key.mark !== null).then((stored) => number(endpoint, cacheKey, stored, requestId, time))
      // The count is the store's, not this process's: another process on the folder (the app and
      // `hookloop listen`) may have counted arrivals of a key this one holds in memory. A key seen
      // again reads the store's newest row of it (one index probe, paid by duplicates only) and
      // continues from whichever count is further on; memory is ahead for rows not yet committed.
      const stored = groups.has(cacheKey) || mayBeStored(endpoint.id) ? store.keyGroup(endpoint.id, key.key, key.mark !== null) : undefined
      return number(endpoint, cacheKey, stored, requestId, time)
    },
    forget(endpointId) {
      for (const [k, g] of groups) if (g.endpointId === endpointId) groups.delete(k)
      // Its groups now live only in the store.
      storeMayKnow.set(endpointId, true)
    },
  }
}
