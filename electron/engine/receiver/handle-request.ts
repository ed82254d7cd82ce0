// One request, start to end: read the body (within the endpoint's limit and the deadline), verify
// the raw bytes, number the dedupe key, choose the rule, queue the row, and only then answer.
// Everything that happens to the request ends in the row and in events, in that order.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Clock } from '../../../shared/clock'
import { ATTEMPT_HEADER, DEFAULT_BODY_LIMIT, type Endpoint } from '../../../shared/receiver'
import type { CapturedRequest, ReceiverEvent, ResponseOutcome } from '../../../shared/receiver-events'
import type { VerifyResult } from '../../../shared/signatures'
import type { RequestRow } from '../store/requests'
import type { CaptureWriter } from './capture-writer'
import type { DedupeTracker, KeyExtractor } from './dedupe'
import type { Plan, RuleEngine } from './rule-engine'
import type { Step } from '../../../shared/rules'
import type { Connection } from './server'
import { CaptureNotStoredError, defaultReply, prepareReply, runSteps, sendPrepared, type PreparedReply, type StepResult, type StepRun } from './steps'
import { verifyRequest } from './verify-request'

/** An endpoint with its compiled dedupe key. */
export interface LiveEndpoint {
  endpoint: Endpoint
  key: KeyExtractor | null
}

export interface RequestHandlerDeps {
  clock: Clock
  writer: CaptureWriter
  dedupe: DedupeTracker
  rules: RuleEngine
  route(path: string): LiveEndpoint | null
  nextId(): number
  /** The URL a sender called, for URL-signed schemes: public URL when known, else local. */
  baseUrl(): string
  emit(event: ReceiverEvent): void
}

/** How much of an over-limit body is kept (the rest is counted, not stored). */
const TRUNCATED_PREVIEW = 64 * 1024
const NOT_PARSED = Symbol('not parsed')

type BodyRead =
  | { kind: 'complete'; body: Buffer; size: number }
  | { kind: 'too_large'; body: Buffer; size: number }
  | { kind: 'aborted' | 'deadline' | 'bad_request'; body: Buffer; size: number }

function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?')
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string])
  return pairs
}

function attemptIdOf(req: IncomingMessage): number | null {
  const value = req.headers[ATTEMPT_HEADER]
  const text = Array.isArray(value) ? value[0] : value
  if (!text || !/^\d{1,15}$/.test(text.trim())) return null
  return Number(text.trim())
}

function declaredLength(req: IncomingMessage): number | null {
  const value = req.headers['content-length']
  if (value === undefined || !/^\d+$/.test(value)) return null
  return Number(value)
}

/** Reads the body, keeping at most `limit` bytes; a too-large body is drained (not stored) to its end. */
function readBody(req: IncomingMessage, connection: Connection, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let kept = 0
    let tooLarge = false
    let settled = false
    const settle = (kind: BodyRead['kind']) => {
      if (settled) return
      settled = true
      connection.interrupt = null
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      resolve({ kind, body, size })
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (!tooLarge && size > limit) tooLarge = true
      const room = (tooLarge ? Math.min(limit, TRUNCATED_PREVIEW) : limit) - kept
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room)
        chunks.push(part)
        kept += part.length
      }
    }
    const onEnd = () => {
      connection.received()
      settle(tooLarge ? 'too_large' : 'complete')
    }
    const onClose = () => settle(req.complete ? (tooLarge ? 'too_large' : 'complete') : 'aborted')
    connection.interrupt = (reason) => settle(reason)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
  })
}

export function createRequestHandler(deps: RequestHandlerDeps) {
  const { clock, writer, emit } = deps

  async function handle(req: IncomingMessage, res: ServerResponse, connection: Connection, refuseEarly: boolean): Promise<void> {
    const receivedAt = clock.now()
    const id = deps.nextId()
    const { path, query } = splitUrl(req.url ?? '/')
    const live = deps.route(path)
    const endpoint = live?.endpoint ?? null
    const limit = endpoint?.bodyLimit ?? DEFAULT_BODY_LIMIT
    const declared = declaredLength(req)

    let read: BodyRead
    if (declared !== null && declared > limit) {
      // Refuse before reading: nothing is kept but the head and the declared size.
      read = { kind: 'too_large', body: Buffer.alloc(0), size: declared }
      connection.received()
    } else {
      if (refuseEarly) res.writeContinue()
      read = await readBody(req, connection, limit)
    }
    const body = read.kind === 'too_large' ? read.body.subarray(0, Math.min(limit, TRUNCATED_PREVIEW)) : read.body

    const row: RequestRow = {
      id,
      endpoint_id: endpoint?.id ?? null,
      received_at: receivedAt,
      method: req.method ?? 'GET',
      path,
      query,
      http_version: req.httpVersion,
      headers_json: JSON.stringify(headerPairs(req.rawHeaders)),
      body,
      body_size: read.size,
      body_truncated: read.kind === 'complete' ? 0 : 1,
      remote_address: req.socket.remoteAddress ?? null,
      verify_valid: null,
      verify_reason: null,
      verify_json: null,
      dedupe_key: null,
      duplicate_of: null,
      duplicate_number: null,
      rule_id: null,
      fault_json: null,
      response_status: null,
      response_headers_json: null,
      response_body: null,
      response_ms: null,
      attempt_id: attemptIdOf(req),
    }

    let verified: VerifyResult | null = null
    let arrival: { number: number; duplicateOf: number | null } | null = null
    let plan: Plan | null = null
    if (live && endpoint && read.kind === 'complete') {
      let parsed: unknown = NOT_PARSED
      const json = () => {
        if (parsed === NOT_PARSED) {
          parsed = undefined
          const first = body.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09)
          if (first === 0x7b || first === 0x5b) {
            try {
              parsed = JSON.parse(body.toString('utf8'))
            } catch {
              parsed = undefined
            }
          }
        }
        return parsed
      }
      if (endpoint.scheme) {
        verified = verifyRequest(endpoint, { body, headers: req.headers, url: `${deps.baseUrl()}${req.url ?? '/'}`, nowMs: receivedAt })
        row.verify_valid = verified.valid ? 1 : 0
        row.verify_reason = verified.reason
        row.verify_json = JSON.stringify(verified)
      }
      const key = live.key ? live.key(req.headers, json) : null
      if (key !== null) {
        arrival = deps.dedupe.arrive(endpoint, key, id, receivedAt)
        row.dedupe_key = key
        row.duplicate_number = arrival.number
        row.duplicate_of = arrival.duplicateOf
      }
      plan = deps.rules.plan(endpoint.id, {
        method: row.method,
        path,
        headers: req.headers,
        json,
        arrival: arrival?.number ?? null,
        dedupeKey: key,
      })
      row.rule_id = plan?.ruleId ?? null
      const final = plan?.steps[plan.steps.length - 1]
      if (final?.type === 'reply' || final?.type === 'redirect') row.response_status = final.status
      if (plan) row.fault_json = JSON.stringify({ outcome: 'pending', step: null, steps: plan.steps })
    }

    // A plain answer (a single reply or redirect, the default 200, the 404) goes into the row as
    // it is inserted: one write per request. Its time is stamped just before the commit, which
    // the answer immediately follows. Anything else records its outcome with an update later.
    let prepared: PreparedReply | null = null
    if (read.kind === 'complete') {
      prepared = endpoint ? prepareReply(plan?.steps ?? null, { status: 200, text: 'OK' }) : prepareReply(null, { status: 404, text: 'no endpoint at this path' })
    }
    if (prepared) {
      row.response_status = prepared.status
      row.response_headers_json = JSON.stringify(prepared.headers)
      row.response_body = prepared.body
      row.fault_json = plan ? JSON.stringify({ outcome: 'replied', step: prepared.fault, steps: plan.steps }) : null
      writer.insert(row, () => {
        row.response_ms = clock.now() - receivedAt
      })
    } else {
      writer.insert(row)
    }
    const captured: CapturedRequest = {
      id,
      endpointId: row.endpoint_id,
      endpointSlug: endpoint?.slug ?? null,
      receivedAt,
      method: row.method,
      path,
      query,
      httpVersion: row.http_version,
      bodySize: row.body_size,
      bodyTruncated: row.body_truncated === 1,
      remoteAddress: row.remote_address,
      attemptId: row.attempt_id,
      dedupeKey: row.dedupe_key,
    }
    emit({ type: 'request.captured', request: captured })
    if (verified && endpoint) emit({ type: 'request.verified', requestId: id, endpointId: endpoint.id, result: verified })
    if (arrival && arrival.duplicateOf !== null && endpoint && row.dedupe_key !== null) {
      emit({ type: 'request.duplicate', requestId: id, endpointId: endpoint.id, dedupeKey: row.dedupe_key, duplicateOf: arrival.duplicateOf, number: arrival.number })
    }

    const run: StepRun = {
      req,
      res,
      socket: req.socket,
      signal: connection.signal,
      clock,
      ...(row.attempt_id === null ? {} : { attemptKey: String(row.attempt_id) }),
      beforeAnswer: () =>
        writer.committed().catch((error: unknown) => {
          throw new CaptureNotStoredError(error instanceof Error ? error.message : String(error))
        }),
    }
    let result: StepResult
    try {
      result = prepared ? await sendPrepared(run, prepared) : await respond(read, endpoint, plan, run)
    } catch (error) {
      result = await answerStoreFailure(run, error)
    }
    finish(row, result, plan?.steps ?? null, prepared !== null && result.outcome === 'replied')
  }

  async function respond(read: BodyRead, endpoint: Endpoint | null, plan: Plan | null, run: StepRun): Promise<StepResult> {
    switch (read.kind) {
      case 'aborted':
        return { outcome: 'client_gone', status: null, headers: null, body: null, fault: null }
      case 'deadline':
        return refuse(run, 408, 'the request took too long to arrive')
      case 'bad_request':
        return refuse(run, 400, 'the request body is not valid HTTP (bad chunk framing, or the connection ended mid-body)')
      case 'too_large':
        return refuse(run, 413, `the body is larger than this endpoint's limit of ${endpoint?.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes`)
      case 'complete':
        if (!endpoint) return defaultReply(run, 404, 'no endpoint at this path')
        if (plan) return runSteps(plan.steps, run)
        return defaultReply(run, 200, 'OK')
      default: {
        const never: never = read
        return never
      }
    }
  }

  /** The receiver's own error answers close the connection: the rest of the request is not read. */
  async function refuse(run: StepRun, status: number, text: string): Promise<StepResult> {
    await run.beforeAnswer()
    run.res.shouldKeepAlive = false
    const result = await defaultReply(run, status, text)
    return { ...result, outcome: result.outcome === 'replied' ? 'refused' : result.outcome }
  }

  async function answerStoreFailure(run: StepRun, error: unknown): Promise<StepResult> {
    const outcome: ResponseOutcome = 'store_failed'
    if (!(error instanceof CaptureNotStoredError) || run.res.headersSent || run.signal.aborted) {
      if (!run.res.headersSent && !run.signal.aborted) run.socket.destroy()
      return { outcome, status: null, headers: null, body: null, fault: null }
    }
    const body = Buffer.from('the request could not be stored; retry later', 'utf8')
    const headers: [string, string][] = [
      ['content-type', 'text/plain; charset=utf-8'],
      ['content-length', String(body.length)],
      ['retry-after', '5'],
    ]
    run.res.writeHead(503, headers.flat())
    run.res.end(body)
    return { outcome, status: 503, headers, body, fault: null }
  }

  function finish(row: RequestRow, result: StepResult, steps: readonly Step[] | null, alreadyStored: boolean): void {
    const durationMs = alreadyStored && row.response_ms !== null ? row.response_ms : clock.now() - row.received_at
    if (!alreadyStored) {
      writer.outcome({
        id: row.id,
        // Null only for a plain default answer: anything a rule did, or any other ending, is kept.
        fault_json: steps || result.outcome !== 'replied' ? JSON.stringify({ outcome: result.outcome, step: result.fault, steps }) : null,
        response_status: result.status,
        response_headers_json: result.headers ? JSON.stringify(result.headers) : null,
        response_body: result.body,
        response_ms: durationMs,
      })
    }
    emit({ type: 'request.responded', requestId: row.id, ruleId: row.rule_id, fault: result.fault, outcome: result.outcome, status: result.status, durationMs })
  }

  return {
    onRequest(req: IncomingMessage, res: ServerResponse, connection: Connection): Promise<void> {
      return handle(req, res, connection, false)
    },
    /** Expect: 100-continue: an over-limit declared body is refused before the client sends it. */
    onExpectContinue(req: IncomingMessage, res: ServerResponse, connection: Connection): Promise<void> {
      return handle(req, res, connection, true)
    },
  }
}
