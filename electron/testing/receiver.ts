// A Hookloop receiver inside the test's process: the engine's receiver on a free loopback port,
// its store a SQLite file in a temp folder removed on close. Requests are handed to the test once
// answered (and its schema verdict judged), so each one already carries its verdicts, duplicate
// number and the fault applied.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EndpointInput, ResponseOutcome } from '../../shared/receiver'
import { createRealClock } from '../engine/clock'
import { createContractSchemas } from '../engine/contracts'
import { createReceiver, type Receiver } from '../engine/receiver'
import { createSchemaVerdictStore, DATA_FILE_NAME, openDatabase } from '../engine/store'
import { toReceivedRequest, type ReceivedRequest } from './received-request'
import { track } from './open-resources'

/** An endpoint as `hookloop listen` takes it (slug, scheme, secrets, dedupe …) with its rules. */
export type TestEndpoint = EndpointInput & {
  /** Rules or presets, first match wins: `{ preset: 'fail-first', n: 2 }`, `{ steps: [...] }`. */
  rules?: readonly unknown[]
}

export interface StartReceiverOptions {
  endpoints: readonly TestEndpoint[]
  /** Default 0: a free port. */
  port?: number
}

/** Which request nextRequest waits for; every field given must hold. */
export interface RequestFilter {
  /** The endpoint's slug. */
  endpoint?: string
  /** The event id the endpoint's dedupe key reads. */
  eventId?: string
  where?: (request: ReceivedRequest) => boolean
  /** Real milliseconds to wait (default 5000). */
  timeoutMs?: number
}

export interface TestReceiver {
  /** http://127.0.0.1:<port> */
  readonly url: string
  readonly port: number
  /** The URL of an endpoint: `${url}/h/<slug>`; throws for a slug not defined here. */
  endpointUrl(slug: string): string
  /**
   * The oldest answered request matching `filter` that no earlier nextRequest returned; waits for
   * one until the timeout, then rejects naming what it waited for and what did arrive. The timeout
   * is for the request to come: once it has, its schema verdict is awaited however long judging
   * takes (the first request of a provider's schema waits for the schema to compile).
   */
  nextRequest(filter?: RequestFilter): Promise<ReceivedRequest>
  /** Every request answered so far, in arrival order (optionally only those matching). */
  requests(filter?: Omit<RequestFilter, 'timeoutMs'>): ReceivedRequest[]
  /** Stops listening and removes the store. Safe to call twice. */
  close(): Promise<void>
}

const DEFAULT_TIMEOUT_MS = 5_000

function describeFilter(filter: RequestFilter): string {
  const parts = [
    filter.endpoint === undefined ? null : `to endpoint "${filter.endpoint}"`,
    filter.eventId === undefined ? null : `with event id "${filter.eventId}"`,
    filter.where === undefined ? null : `matching ${filter.where.name ? `${filter.where.name}()` : 'the predicate'}`,
  ].filter((p): p is string => p !== null)
  return parts.length ? `a request ${parts.join(' ')}` : 'a request'
}

function matches(request: ReceivedRequest, filter: Omit<RequestFilter, 'timeoutMs'>): boolean {
  if (filter.endpoint !== undefined && request.endpoint !== filter.endpoint) return false
  if (filter.eventId !== undefined && request.eventId !== filter.eventId) return false
  return filter.where === undefined || filter.where(request)
}

interface Waiter {
  filter: RequestFilter
  /** A request matched: the deadline stops, and the waiter gets it once whole (its verdict judged). */
  take(whole: Promise<ReceivedRequest>): void
  reject(error: Error): void
}

export async function startReceiver(options: StartReceiverOptions): Promise<TestReceiver> {
  if (!options || !Array.isArray(options.endpoints) || options.endpoints.length === 0) {
    throw new TypeError('startReceiver: give at least one endpoint, e.g. { endpoints: [{ slug: "github", scheme: "github", secrets: ["…"] }] }')
  }
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-testing-'))
  const db = openDatabase({ file: join(dir, DATA_FILE_NAME) })
  const clock = createRealClock()
  const answered: ReceivedRequest[] = []
  const taken = new Set<number>()
  const waiters = new Set<Waiter>()
  const slugs = new Map<string, string>()
  let receiver: Receiver

  // A request is listed (requests()) as soon as it is answered; nextRequest() takes it then (its
  // deadline is for the request to come, not for judging it) and hands it over once its schema
  // verdict is judged too (after the answer, queued before request.responded is told), so what it
  // resolves with is whole. The first request of a schema waits for the schema's compiling.
  const verdicts = createSchemaVerdictStore(db)
  const whole = new Map<number, Promise<ReceivedRequest>>()
  const onResponded = (requestId: number, outcome: ResponseOutcome) => {
    const record = receiver.requests.get(requestId)
    if (!record) return
    const request = toReceivedRequest(record, record.endpointId === null ? null : (slugs.get(record.endpointId) ?? null), outcome)
    answered.push(request)
    const judged = () => {
      // Closed meanwhile (the test ended while a verdict was judged): its store is gone.
      if (closing) throw new Error(`nextRequest: the receiver at ${receiver.url} was closed while request #${requestId}'s schema verdict was judged`)
      request.schema = verdicts.get(requestId) ?? null
      return request
    }
    const ready = receiver.schemaVerdicts.idle().then(judged, judged)
    ready.catch(() => {}) // told to whoever takes it
    whole.set(requestId, ready)
    for (const waiter of waiters) {
      if (!matches(request, waiter.filter)) continue
      waiters.delete(waiter)
      taken.add(request.id)
      waiter.take(ready)
      return
    }
  }

  try {
    receiver = await createReceiver({
      db,
      clock,
      host: '127.0.0.1',
      port: options.port ?? 0,
      captureThread: false,
      keepProcessAlive: false,
      // An endpoint given a contract ({spec, operation}): its requests are judged against that spec.
      contractSchemas: createContractSchemas(),
      onEvent: (event) => {
        if (event.type === 'request.responded') onResponded(event.requestId, event.outcome)
      },
    })
  } catch (error) {
    db.close()
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  try {
    for (const [i, definition] of options.endpoints.entries()) {
      const { rules = [], ...fields } = definition
      let endpoint
      try {
        endpoint = await receiver.endpoints.create(fields)
        for (const rule of rules) await receiver.rules.add(endpoint.id, rule)
      } catch (error) {
        throw new TypeError(`startReceiver: endpoints[${i}] (${JSON.stringify(fields.slug)}): ${(error as Error).message}`)
      }
      slugs.set(endpoint.id, endpoint.slug)
    }
  } catch (error) {
    await receiver.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
    throw error
  }

  let closing: Promise<void> | null = null
  const close = () => {
    closing ??= (async () => {
      untrack()
      for (const waiter of waiters) waiter.reject(new Error(`nextRequest: the receiver at ${receiver.url} was closed while waiting for ${describeFilter(waiter.filter)}`))
      waiters.clear()
      await receiver.close()
      db.close()
      rmSync(dir, { recursive: true, force: true })
    })()
    return closing
  }
  const untrack = track({ description: `receiver at ${receiver.url}`, close })

  return {
    url: receiver.url,
    port: receiver.port,
    endpointUrl(slug) {
      if (![...slugs.values()].includes(slug)) throw new Error(`endpointUrl: no endpoint "${slug}" (defined: ${[...slugs.values()].join(', ')})`)
      return receiver.endpointUrl(slug)
    },
    nextRequest(filter = {}) {
      if (closing) return Promise.reject(new Error('nextRequest: the receiver is closed'))
      const ready = answered.find((r) => !taken.has(r.id) && matches(r, filter))
      if (ready) {
        taken.add(ready.id)
        return whole.get(ready.id) as Promise<ReceivedRequest>
      }
      const timeoutMs = filter.timeoutMs ?? DEFAULT_TIMEOUT_MS
      return new Promise<ReceivedRequest>((resolve, reject) => {
        const waiter: Waiter = {
          filter,
          take(request) {
            clearTimeout(timer)
            request.then(resolve, reject)
          },
          reject(error) {
            clearTimeout(timer)
            reject(error)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          const seen = answered.length === 0 ? 'nothing arrived' : `${answered.length} arrived: ${answered.map((r) => `#${r.id} ${r.method} ${r.path}${r.eventId ? ` (event ${r.eventId})` : ''}${taken.has(r.id) ? ' [already taken]' : ''}`).join('; ')}`
          reject(new Error(`nextRequest: waited ${timeoutMs} ms for ${describeFilter(filter)} at ${receiver.url}; ${seen}`))
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    requests(filter = {}) {
      return answered.filter((r) => matches(r, filter))
    },
    close,
  }
}
