// Dedupe: take the key a request carries (header, body field or template over body fields) and
// number its arrivals inside the endpoint's window (fixed from the first arrival, like a
// `SET key NX EX window`). The numbering lives in memory for speed and falls back to the store
// for keys first seen in an earlier run.
import type { IncomingHttpHeaders } from 'node:http'
import { parseJsonPath, parseTemplate, readJsonPath, type DedupeKey, type Endpoint, type JsonPath } from '../../../shared/receiver'
import type { KeyGroup, RequestStore } from '../store/requests'

/** A compiled key extractor: headers + lazily parsed JSON body → the key, or null when absent. */
export type KeyExtractor = (headers: IncomingHttpHeaders, json: () => unknown) => string | null

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return null
}

export function compileKeyExtractor(key: DedupeKey): KeyExtractor {
  switch (key.type) {
    case 'header': {
      const name = key.name.toLowerCase()
      return (headers) => {
        const value = headers[name]
        const first = Array.isArray(value) ? value[0] : value
        return first === undefined || first.trim() === '' ? null : first.trim()
      }
    }
    case 'json-path': {
      const path = parseJsonPath(key.path)
      return (_headers, json) => scalar(readJsonPath(json(), path))
    }
    case 'template': {
      const pieces = parseTemplate(key.template)
      return (_headers, json) => {
        const body = json()
        let out = ''
        for (const piece of pieces) {
          if (typeof piece === 'string') {
            out += piece
            continue
          }
          // Every placeholder must resolve: a partial key would merge unrelated events.
          const value = scalar(readJsonPath(body, piece as JsonPath))
          if (value === null) return null
          out += value
        }
        return out
      }
    }
    default: {
      const never: never = key
      return never
    }
  }
}

export interface Arrival {
  /** 1 for the first arrival of the key in its window, 2 for dup #2 … */
  number: number
  /** The first arrival's request id, null for a first arrival. */
  duplicateOf: number | null
}

export interface DedupeTracker {
  arrive(endpoint: Endpoint, key: string, requestId: number, now: number): Arrival
  /** Forget an endpoint's keys (its window or key definition changed). */
  forget(endpointId: string): void
}

// Bounded so a flood of unique keys cannot grow memory without end; the oldest groups go first
// and are read back from the store if they show up again (long committed by then).
const MAX_CACHED_GROUPS = 100_000

/**
 * startMaxId: the highest request id when the receiver started. A key missing from memory can
 * only be in the store if the endpoint had keyed rows before that, or memory dropped some groups;
 * otherwise the store lookup is skipped (it is most of the cost of a never-seen key).
 */
export function createDedupeTracker(store: RequestStore, startMaxId: number): DedupeTracker {
  const groups = new Map<string, KeyGroup & { endpointId: string }>()
  const storeMayKnow = new Map<string, boolean>()
  let dropped = false
  const mayBeStored = (endpointId: string): boolean => {
    if (dropped) return true
    let known = storeMayKnow.get(endpointId)
    if (known === undefined) {
      known = store.hasKeyedRows(endpointId, startMaxId)
      storeMayKnow.set(endpointId, known)
    }
    return known
  }
  return {
    arrive(endpoint, key, requestId, now) {
      const cacheKey = `${endpoint.id}\u0000${key}`
      let group = groups.get(cacheKey)
      if (!group && mayBeStored(endpoint.id)) {
        const stored = store.keyGroup(endpoint.id, key)
        if (stored) group = { ...stored, endpointId: endpoint.id }
      }
      if (group && now - group.firstAt <= endpoint.dedupeWindowMs) {
        group.count += 1
        groups.delete(cacheKey) // re-insert: Map order doubles as least-recently-seen order
        groups.set(cacheKey, group)
        return { number: group.count, duplicateOf: group.firstId }
      }
      groups.delete(cacheKey)
      groups.set(cacheKey, { firstId: requestId, firstAt: now, count: 1, endpointId: endpoint.id })
      if (groups.size > MAX_CACHED_GROUPS) {
        const oldest = groups.keys().next()
        if (!oldest.done) groups.delete(oldest.value)
        dropped = true
      }
      return { number: 1, duplicateOf: null }
    },
    forget(endpointId) {
      for (const [k, g] of groups) if (g.endpointId === endpointId) groups.delete(k)
      // Its groups now live only in the store.
      storeMayKnow.set(endpointId, true)
    },
  }
}
