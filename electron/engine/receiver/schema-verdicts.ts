// The schema verdict, off the capture path: a request answered at an endpoint made from a contract
// (`hookloop contract add`: held against its spec's operation, read by `contracts`, which the
// receiver is given) or one that verifies a provider's scheme is queued by id. A provider whose
// schemas are not shipped gets its "no schema" at once. For the others the queue reads the stored
// bytes back from the store (the
// writer has taken the request's own Buffer by then), has them held against the provider's schema
// (payload-schemas/) and hands the verdict to the capture writer. Nothing here runs before an
// answer, and no answer waits on it. The judging itself runs on a thread of its own
// (payload-schemas/judge-thread.ts): compiling a schema (GitHub's: about 1.5 s) and checking a body
// never hold the event loop. Where no thread script is built (the sources run unbundled, as under
// vitest) the judge runs on the event loop instead. Either way it judges in turns of a few
// milliseconds, at most a twentieth of the time while requests keep coming, so arrivals are read
// and answered between them and before them (on the event loop) and keep the CPU they need (on the
// thread); when they stop, it catches up at full pace.
import type { Database } from 'better-sqlite3'
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../../shared/providers'
import type { Endpoint, EndpointContract, ReceiverEvent, SchemaVerdict } from '../../../shared/receiver'
import { createSchemaJudge, createThreadJudge, judgeThreadScript, noSchema, SCHEMA_SOURCES, verdictWithoutSource, type ContractSchemas, type SchemaJudge } from '../payload-schemas'
import { createSchemaSubjectReads, createSchemaVerdictStore, encodeSchemaVerdict, type SchemaSubject, type SqlEngine } from '../store'
import type { CaptureWriter } from './capture-writer'

export interface SchemaVerdicts {
  /** A request of this endpoint is answered and its row handed to the writer: judge it soon. */
  add(requestId: number, endpoint: Endpoint): void
  /** Resolves once every request added so far is judged and its verdict committed. */
  idle(): Promise<void>
  /** Requests waiting for their verdict. */
  pending(): number
  /** Stops judging; what is still queued gets no verdict. */
  close(): void
}

export interface SchemaVerdictOptions {
  /** A data folder's connection, where the stored bytes are read back; or `store`, a team's PostgreSQL. */
  db?: Database
  store?: SqlEngine
  writer: CaptureWriter
  now(): number
  emit(event: ReceiverEvent): void
  /** Default true; false: no request is judged (the benchmark's "off"). */
  enabled?: boolean
  /**
   * The judge thread's script; default the one built beside the running bundle (judgeThreadScript).
   * False, or none built: judged on the event loop, in paced turns.
   */
  judgeThread?: string | false
  /**
   * Reads the spec of an endpoint made from a contract. Without it such an endpoint is judged as
   * any other (by its provider's schema, if its scheme names one).
   */
  contracts?: ContractSchemas
}

/** How long one turn of the queue may judge before it rests. */
const TURN_MS = 4
/**
 * The most of the time judging takes while requests keep coming: after a turn of t ms it rests
 * t × (1/share − 1) ms. On the event loop that is the loop's time; on the judge's thread it is CPU
 * the answers share (a body's check costs about a third of its capture, and reading it back from
 * the store more). Under a flood the verdicts fall behind; once requests stop coming for a turn the
 * queue judges without resting and catches up. The answers keep ≥ 0.9 of their pace
 * (docs/BENCHMARKS.md, bench:receiver schema_on_vs_off).
 */
const JUDGING_SHARE = 0.05

/**
 * The provider an endpoint names by its scheme: the pack of that scheme whose schemas are shipped,
 * else the first pack of that scheme (its verdict says what it publishes); null for an endpoint that
 * verifies nothing or a scheme of no provider (custom HMAC).
 */
export function providerOfEndpoint(endpoint: Endpoint): ProviderId | null {
  if (!endpoint.scheme) return null
  const packs = PROVIDER_IDS.filter((id) => PROVIDERS[id].scheme === endpoint.scheme)
  return packs.find((id) => SCHEMA_SOURCES[id] !== undefined) ?? packs[0] ?? null
}

const missingStore = (): never => {
  throw new TypeError('schema verdicts need a store: a data folder (db) or a SqlEngine (store)')
}

export function createSchemaVerdicts(options: SchemaVerdictOptions): SchemaVerdicts {
  const store: { subject(id: number): SchemaSubject | undefined | Promise<SchemaSubject | undefined> } = options.db
    ? createSchemaVerdictStore(options.db)
    : createSchemaSubjectReads(options.store ?? missingStore())
  const script = options.judgeThread === undefined ? judgeThreadScript() : options.judgeThread
  const thread = options.enabled !== false && script ? createThreadJudge(script) : null
  const judge: SchemaJudge = thread ?? createSchemaJudge()
  const queue: { requestId: number; endpointId: string; by: { provider: ProviderId } | { contract: EndpointContract } }[] = []
  let draining: Promise<void> | null = null
  let closed = false
  /** When the last request was queued (performance.now()). */
  let lastAdded = -Infinity
  const enabled = options.enabled ?? true

  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
  const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

  /** The verdict through the capture writer (after its request's row), told once committed. */
  function record(item: (typeof queue)[number], verdict: SchemaVerdict): void {
    options.writer.verdict(encodeSchemaVerdict(item.requestId, verdict, options.now()))
    const tell = () => options.emit({ type: 'request.schema', requestId: item.requestId, endpointId: item.endpointId, verdict })
    options.writer.committed().then(tell, () => {})
  }

  async function judgeOne(by: (typeof queue)[number]['by'], headers: [string, string][], body: Buffer, bodyTruncated: boolean): Promise<SchemaVerdict> {
    if ('provider' in by) return judge.judge(by.provider, headers, body, bodyTruncated)
    // The spec is read here, once and kept; a spec changed or gone since says so as the verdict.
    const given = await options.contracts!.given(by.contract)
    if ('none' in given) return noSchema(given.none, { source: given.source ?? null, version: given.version ?? null, schema: given.schema ?? null })
    return judge.judgeGiven(given, headers, body, bodyTruncated)
  }

  /**
   * The request's verdict: told at once for a provider whose schemas are not shipped, else its
   * stored bytes judged (by its contract or its provider); undefined when it is not stored.
   */
  async function verdictOf(item: (typeof queue)[number]): Promise<SchemaVerdict | undefined> {
    const sourceless = 'provider' in item.by ? verdictWithoutSource(item.by.provider) : null
    if (sourceless) return sourceless
    const read = store.subject(item.requestId)
    const subject = read instanceof Promise ? await read : read
    // Not stored (its capture failed, or it was cleared meanwhile): nothing to judge.
    if (!subject) return undefined
    let headers: [string, string][] = []
    try {
      headers = JSON.parse(subject.headers_json) as [string, string][]
    } catch {
      headers = []
    }
    try {
      return await judgeOne(item.by, headers, subject.body ?? Buffer.alloc(0), subject.body_truncated !== 0)
    } catch (error) {
      // A checker that throws on a body says so as the verdict; capture goes on.
      return noSchema(`the body could not be checked: ${(error as Error).message}`)
    }
  }

  async function drain(): Promise<void> {
    await nextTurn()
    let turnStart = performance.now()
    while (queue.length > 0 && !closed) {
      const item = queue.shift()!
      const verdict = await verdictOf(item)
      if (closed) break
      if (verdict) record(item, verdict)
      const spent = performance.now() - turnStart
      if (spent >= TURN_MS) {
        // Requests came during the turn: they keep their pace. A turn that compiled a schema (once
        // per schema, long) rests no longer than an ordinary one. None came: only a yield, so an
        // arrival is read before the next turn.
        if (lastAdded >= turnStart) await rest(Math.min(spent, TURN_MS * 2) * (1 / JUDGING_SHARE - 1))
        else await nextTurn()
        turnStart = performance.now()
      }
    }
  }

  function start(): void {
    if (draining || closed) return
    draining = drain().finally(() => {
      draining = null
      if (queue.length > 0) start()
    })
  }

  return {
    add(requestId, endpoint) {
      if (!enabled || closed) return
      if (endpoint.contract && options.contracts) {
        queue.push({ requestId, endpointId: endpoint.id, by: { contract: endpoint.contract } })
      } else {
        const provider = providerOfEndpoint(endpoint)
        if (!provider) return
        queue.push({ requestId, endpointId: endpoint.id, by: { provider } })
      }
      lastAdded = performance.now()
      start()
    },
    async idle() {
      while (draining) await draining
      await options.writer.committed()
    },
    pending: () => queue.length,
    close() {
      closed = true
      queue.length = 0
      thread?.close()
    },
  }
}
