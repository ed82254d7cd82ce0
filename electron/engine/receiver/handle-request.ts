// One request, start to end, in four stages: read (the body, within the endpoint's limit, the
// memory budget and the deadline) → inspect (verify, dedupe, plan: inspect.ts) → record (the
// Capture, encoded by the store, queued before any answer) → answer (steps.ts). Everything that
// happens to the request ends in its Capture and in events, in that order. The receiver answers
// even what Node would answer by itself (a missing Host, an unknown Expect, CONNECT), so every
// answer has its row.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Clock } from '../../../shared/clock'
import { arrivedOnClock } from '../clock'
import { ATTEMPT_HEADER, DEFAULT_BODY_LIMIT, endpointPath } from '../../../shared/receiver'
import { allowPageToRead, isPreflight, preflightReply } from './cors'
import type { Breakpoint, CapturedRequest, ReceiverEvent, Capture, Step } from '../../../shared/receiver'
import { encodeCapture, encodeOutcome } from '../store'
import type { BodyBudget, BodyReservation } from './body-budget'
import type { CaptureWriter } from './capture-writer'
import type { Forwarder } from './forward'
import { forwardHooks, type CopyBudget } from './forward-steps'
import { inspect, type InspectDeps, type Inspection, type LiveEndpoint } from './inspect'
import { lingerAfterAnswer, LINGER_BOUNDS, type LingerBounds, type LingerEnd } from './linger'
import { declaredLength, readBody, refusals, RETRY_AFTER_S, type BodyRead, type Refusal, TRUNCATED_PREVIEW } from './read-body'
import type { Connection } from './server'
import type { Breakpoints } from './breakpoints'
import { holdThenAnswer, type Released } from './hold'
import { CaptureNotStoredError, defaultReply, prepareReply, runSteps, sendPrepared, type PreparedReply, type StepResult, type StepRun } from './steps'

export type { LiveEndpoint } from './inspect'

export interface RequestHandlerDeps extends InspectDeps {
  /** The engine's clock: a request one of our attempts made is on it (it is part of the loop). */
  clock: Clock
  /** Everything else arrives on the wall clock, whatever the engine's clock is (docs/time.md). */
  wallClock: Clock
  /** Whether an endpoint sends what it receives on to an app: its signatures are then judged on wall time, as they were signed. */
  forwards(endpoint: LiveEndpoint): boolean
  writer: CaptureWriter
  budget: BodyBudget
  /** How long and how much a refusal's lingering close reads (default LINGER_BOUNDS). */
  linger?: LingerBounds
  /** A refusal's connection ended: the client had the answer ('read'), or a bound cut it. */
  refusalEnded: (end: LingerEnd) => void
  /** Sends captured requests on to targets (forward mode); every leg is stored. */
  forwarder: Forwarder
  /** What background forward copies may hold (body bytes, count) before they make the sender wait. */
  copies: CopyBudget
  route(path: string): LiveEndpoint | null
  /**
   * The attempt of ours that sent this request, when its x-hookloop-attempt value checks out
   * (attempt-link.ts) for an attempt in this store; else null: the header is just a header.
   * At once on a data folder; a Promise on a team's PostgreSQL, whose server is asked.
   */
  linkedAttempt(value: string | string[] | undefined, body: Buffer): number | null | Promise<number | null>
  /** The new request's id: at once while ids are at hand (always, on a data folder); a Promise while a team's store hands out the next block. */
  nextId(): number | Promise<number>
  emit(event: ReceiverEvent): void
  breakpoints: Breakpoints
  /**
   * Whether the store is out of reach now (a team's PostgreSQL that stopped answering, store/postgres-engine.ts):
   * new requests are then refused before anything is captured. Absent on a data folder.
   */
  storeLost?: () => boolean
  /** A whole request at an endpoint was answered (the schema verdict's queue takes it from here). */
  answered?(requestId: number, endpoint: LiveEndpoint['endpoint']): void
}

/** How the request reached us: plain, `Expect: 100-continue`, or another Expect value. */
type ExpectHeader = 'plain' | 'continue' | 'expectation'

function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?')
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string])
  return pairs
}

const textBody = (text: string) => Buffer.from(text, 'utf8')

/** The receiver's own answer to a refusal: plain text, Retry-After when retrying may work. */
function refusalAnswer(refusal: Refusal): { headers: [string, string][]; body: Buffer } {
  const body = textBody(refusal.reason)
  const headers: [string, string][] = [
    ['content-type', 'text/plain; charset=utf-8'],
    ['content-length', String(body.length)],
  ]
  if (refusal.retryAfterS !== undefined) headers.push(['retry-after', String(refusal.retryAfterS)])
  return { headers, body }
}

/** The captured request as a forward target gets it: the path under the endpoint, the exact body. */
function forwardSource(capture: Capture, slug: string, body: Buffer, released?: Released) {
  const base = endpointPath(slug)
  // Forwarded only when read whole (body.kind 'complete'), so the row holds these very bytes;
  // a request edited at a breakpoint goes on as edited (the leg keeps its own body).
  const edited = released !== undefined && released.body !== body
  return { id: capture.id, method: capture.method, subPath: capture.path.slice(base.length), query: capture.query, headers: released?.headers ?? capture.headers, body: released?.body ?? body, remoteAddress: capture.remoteAddress, bodyCaptured: !edited }
}

export function createRequestHandler(deps: RequestHandlerDeps) {
  const { writer, emit } = deps
  // A request linked to one of our attempts follows its attempt's clock; real traffic runs on the wall.
  const clockOf = (capture: Pick<Capture, 'attemptId'>): Clock => (capture.attemptId === null ? deps.wallClock : deps.clock)

  /** The request as known from its head: everything but the body, the inspection and the answer. */
  function captureHead(req: IncomingMessage, connection: Connection, live: LiveEndpoint | null, id: number, url = splitUrl(req.url ?? '/')): Capture {
    const { path, query } = url
    const wallAt = connection.beganWallAt ?? deps.wallClock.now()
    return {
      id,
      endpointId: live?.endpoint.id ?? null,
      // From the request's first byte: the time recorded is the time the client waited.
      // On the wall clock until the request proves to be one of our attempts (placeOnClock).
      receivedAt: wallAt,
      // Stays on the wall clock whatever placeOnClock does: ages and `requests --since` read it.
      storedAt: wallAt,
      method: req.method ?? 'GET',
      path,
      query,
      httpVersion: req.httpVersion,
      headers: headerPairs(req.rawHeaders),
      body: Buffer.alloc(0),
      bodySize: 0,
      bodyTruncated: false,
      remoteAddress: req.socket.remoteAddress ?? null,
      verify: null,
      dedupeKey: null,
      dedupeKeyMark: null,
      notInspected: null,
      refusedReason: null,
      duplicateOf: null,
      duplicateNumber: null,
      ruleId: null,
      fault: null,
      response: { status: null, headers: [], body: null, ms: null },
      // Linked once the whole body is read: the link is made over those bytes.
      attemptId: null,
    }
  }

  /**
   * Once it is known whether the request is linked to one of our attempts: a linked one is
   * recorded on the engine's clock (its attempt's), from the same first byte; real traffic stays
   * on the wall clock (docs/time.md).
   */
  function placeOnClock(capture: Capture, connection: Connection): void {
    if (capture.attemptId !== null) capture.receivedAt = connection.beganAt ?? deps.clock.now()
  }

  /** A refusal decided from the head alone: the body is not read. */
  function refuseBeforeReading(req: IncomingMessage, expect: ExpectHeader, limit: number, declared: number | null, reservation: BodyReservation): Refusal | null {
    if (expect === 'expectation') return { status: 417, reason: `the expectation "Expect: ${String(req.headers.expect).slice(0, 100)}" is not supported (only 100-continue is)` }
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) return { status: 400, reason: 'an HTTP/1.1 request needs a Host header' }
    if (declared !== null && declared > limit) return refusals.tooLarge(limit)
    if (declared !== null && !reservation.take(declared)) return refusals.overBudget(deps.budget.limit)
    return null
  }

  // ---------------------------------------------------------------- read
  async function read(req: IncomingMessage, res: ServerResponse, connection: Connection, expect: ExpectHeader, limit: number, reservation: BodyReservation): Promise<BodyRead> {
    const declared = declaredLength(req)
    const early = refuseBeforeReading(req, expect, limit, declared, reservation)
    if (early) {
      connection.received() // nothing more is read: no deadline for the rest
      const size = declared ?? 0
      const whole = size === 0 && req.headers['transfer-encoding'] === undefined
      return { kind: 'refused', body: Buffer.alloc(0), size, refusal: early, whole, unread: !whole }
    }
    if (expect === 'continue') res.writeContinue()
    return readBody(req, connection, { limit, reservation, budgetLimit: deps.budget.limit, declared })
  }

  // ---------------------------------------------------------------- record
  function applyRead(capture: Capture, body: BodyRead, limit: number): void {
    capture.body = body.kind === 'refused' ? body.body.subarray(0, Math.min(limit, TRUNCATED_PREVIEW)) : body.body
    capture.bodySize = body.size
    capture.bodyTruncated = !(body.kind === 'complete' || (body.kind === 'refused' && body.whole))
    if (body.kind === 'refused') capture.refusedReason = body.refusal.reason
  }

  function applyInspection(capture: Capture, inspection: Inspection): void {
    capture.verify = inspection.verify
    capture.notInspected = inspection.notInspected
    if (inspection.key) {
      capture.dedupeKey = inspection.key.key
      capture.dedupeKeyMark = inspection.key.mark
      capture.dedupeKeyFrom = inspection.keyFrom
    }
    if (inspection.arrival) {
      capture.duplicateNumber = inspection.arrival.number
      capture.duplicateOf = inspection.arrival.duplicateOf
    }
    const plan = inspection.plan
    capture.ruleId = plan?.ruleId ?? null
    const final = plan?.steps[plan.steps.length - 1]
    if (final?.type === 'reply' || final?.type === 'redirect') capture.response.status = final.status
    if (plan) capture.fault = { outcome: 'pending', step: null, steps: plan.steps }
  }

  /**
   * Queues the capture. A plain answer (a single reply or redirect, the default 200, the 404, a
   * refusal) goes into the row as it is inserted: one write per request, its time stamped just
   * before the commit that the answer immediately follows. Anything else records its outcome later.
   * Returns what the answer waits on: this row's commit (not the large bodies queued beside it).
   */
  function record(capture: Capture, prepared: PreparedReply | null, outcome: 'replied' | 'refused', forwards = false): () => Promise<void> {
    // A forward step sends the body after the row is queued (`forwards`): the writer must not take it.
    if (!prepared) return beforeAnswer(writer.insert(encodeCapture(capture), undefined, forwards))
    capture.response = { status: prepared.status, headers: prepared.headers, body: prepared.body, ms: null }
    const steps = capture.fault?.steps ?? null
    capture.fault = steps || outcome === 'refused' ? { outcome, step: prepared.fault, steps } : null
    const row = encodeCapture(capture)
    return beforeAnswer(
      writer.insert(
        row,
        () => {
          row.response_ms = capture.response.ms = clockOf(capture).now() - capture.receivedAt
        },
        forwards,
      ),
    )
  }

  function announce(capture: Capture, endpointSlug: string | null): void {
    const request: CapturedRequest = {
      id: capture.id,
      endpointId: capture.endpointId,
      endpointSlug,
      receivedAt: capture.receivedAt,
      method: capture.method,
      path: capture.path,
      query: capture.query,
      httpVersion: capture.httpVersion,
      bodySize: capture.bodySize,
      bodyTruncated: capture.bodyTruncated,
      remoteAddress: capture.remoteAddress,
      attemptId: capture.attemptId,
      dedupeKey: capture.dedupeKey,
      dedupeKeyMark: capture.dedupeKeyMark ?? null,
      dedupeKeyFrom: capture.dedupeKeyFrom ?? null,
      notInspected: capture.notInspected ?? null,
      refusedReason: capture.refusedReason ?? null,
    }
    emit({ type: 'request.captured', request })
    if (capture.verify && capture.endpointId) emit({ type: 'request.verified', requestId: capture.id, endpointId: capture.endpointId, result: capture.verify })
    if (capture.duplicateOf !== null && capture.endpointId && capture.dedupeKey !== null && capture.duplicateNumber !== null) {
      emit({ type: 'request.duplicate', requestId: capture.id, endpointId: capture.endpointId, dedupeKey: capture.dedupeKey, duplicateOf: capture.duplicateOf, number: capture.duplicateNumber })
    }
  }

  /** Resolves once the capture is committed; the answer may then be written. */
  const beforeAnswer = (committed: () => Promise<void>) => () =>
    committed().catch((error: unknown) => {
      throw new CaptureNotStoredError(error instanceof Error ? error.message : String(error))
    })

  /**
   * The store cannot be reached (or could not be asked what the request needs before its row):
   * 503 + Retry-After at once, nothing captured, since nothing can be. A request is answered 2xx only
   * once its row is committed; refusing here keeps a long outage from piling requests up in memory
   * that each would wait for a commit bound to fail. `unread`: the body was not read yet.
   */
  function refuseUnstored(req: IncomingMessage, res: ServerResponse, connection: Connection, unread: boolean): void {
    const { headers, body } = refusalAnswer(refusals.storeUnreachable())
    res.shouldKeepAlive = false
    if (unread) {
      connection.received()
      const whole = declaredLength(req) === 0 || (declaredLength(req) === null && req.headers['transfer-encoding'] === undefined)
      if (!whole) lingerAfterAnswer(req, req.socket, deps.linger ?? LINGER_BOUNDS, deps.refusalEnded)
    }
    if (!res.headersSent) res.writeHead(503, headers.flat()).end(body)
    emit({ type: 'connection.refused', remoteAddress: req.socket.remoteAddress ?? null, reason: 'store_unreachable', status: 503 })
  }

  // ---------------------------------------------------------------- the pipeline
  async function handle(req: IncomingMessage, res: ServerResponse, connection: Connection, expect: ExpectHeader): Promise<void> {
    const url = splitUrl(req.url ?? '/')
    const live = deps.route(url.path)
    if (deps.storeLost?.()) return refuseUnstored(req, res, connection, true)
    let id: number
    try {
      const next = deps.nextId()
      id = typeof next === 'number' ? next : await next
    } catch {
      // No id could be taken from the store (a team's PostgreSQL that went away meanwhile).
      return refuseUnstored(req, res, connection, true)
    }
    const capture = captureHead(req, connection, live, id, url)
    const limit = live?.endpoint.bodyLimit ?? DEFAULT_BODY_LIMIT
    const reservation = deps.budget.open()
    try {
      // read
      const body = await read(req, res, connection, expect, limit, reservation)
      applyRead(capture, body, limit)
      if (body.kind === 'complete') {
        const linked = deps.linkedAttempt(req.headers[ATTEMPT_HEADER], body.body)
        // Awaited only when a team's store is asked: a data folder's answer is at hand.
        const asked = linked instanceof Promise ? await linked.then((attempt) => ({ attempt }), () => null) : { attempt: linked }
        if (!asked) return refuseUnstored(req, res, connection, false)
        capture.attemptId = asked.attempt
      }
      // Our attempt is here: from now on its time goes to real work (rules, forwards) or to sleeps
      // that park it, never to waiting in transit (virtual-clock.ts).
      if (capture.attemptId !== null) arrivedOnClock(deps.clock, String(capture.attemptId))
      // After the link is decided (nothing reads the time before): the request's clock.
      placeOnClock(capture, connection)
      // A browser's CORS preflight is answered by the receiver, before and instead of any rule.
      const preflight = live !== null && body.kind === 'complete' && isPreflight(req)
      if (live && body.kind !== 'refused') allowPageToRead(req, res)
      // inspect
      let handshake: PreparedReply | null = null
      let breakpoint: Breakpoint | null = null
      if (live && body.kind === 'complete' && !preflight) {
        // A loop request is judged on the clock it was signed on: the engine's, unless the endpoint
        // forwards to an app (then it was signed at wall time, for the app's sake); real traffic on the wall.
        const wallJudged = capture.attemptId === null || deps.forwards(live)
        const verifyAt = wallJudged ? (connection.beganWallAt ?? deps.wallClock.now()) : capture.receivedAt
        // Real traffic is on the wall; a linked request on its attempt's clock (deps.clock), which is the wall on the real clock.
        const onClock: 'wall' | object = capture.attemptId === null || deps.clock.mode === 'real' ? 'wall' : deps.clock
        const arrival = { clock: onClock, at: capture.receivedAt, wallAt: capture.storedAt ?? capture.receivedAt }
        const inspected = await inspect(deps, live, { id: capture.id, arrival, verifyAt, method: capture.method, path: capture.path, url: req.url ?? '/', headers: req.headers, body: body.body }).then(
          (inspection) => ({ inspection }),
          (error: unknown) => {
            // Inspecting asks a team's store (the dedupe key's group); a store that did not answer is no answer to record.
            if (!deps.storeLost?.()) throw error
            return null
          },
        )
        if (!inspected) return refuseUnstored(req, res, connection, false)
        const { inspection } = inspected
        applyInspection(capture, inspection)
        handshake = inspection.handshake
        breakpoint = inspection.breakpoint
      }
      // record
      const steps = capture.fault?.steps ?? null
      let prepared: PreparedReply | null = null
      if (preflight) prepared = preflightReply(req)
      else if (body.kind === 'complete') prepared = live ? prepareReply(steps, { status: 200, text: 'OK' }, handshake) : prepareReply(null, { status: 404, text: 'no endpoint at this path' })
      else if (body.kind === 'refused') prepared = { status: body.refusal.status, ...refusalAnswer(body.refusal), fault: null }
      const forwards = steps?.some((step) => step.type === 'forward' || step.type === 'forward-copy') ?? false
      // A held request's row goes in without its answer, which the hold decides.
      const committed = record(capture, breakpoint ? null : prepared, body.kind === 'refused' ? 'refused' : 'replied', forwards)
      announce(capture, live?.endpoint.slug ?? null)
      // answer
      const run: StepRun = {
        req,
        res,
        socket: req.socket,
        // A prepared answer is written even to a client that half-closed; a hold, delay or drip
        // for it ends (the sender gave up, or will read what comes at once). The signal is made
        // only if a step waits on it.
        get signal() {
          return prepared ? connection.signal : connection.waitEnds
        },
        aborted: () => (prepared ? connection.closed : connection.waitsEnded),
        // A rule's delay or timeout on real traffic waits real time, even while a simulation runs.
        clock: clockOf(capture),
        ...(capture.attemptId === null ? {} : { attemptKey: String(capture.attemptId) }),
        ...(handshake ? { handshake } : {}),
        beforeAnswer: committed,
        ...(forwards && live && body.kind === 'complete' ? { forward: forwardHooks(deps.forwarder, forwardSource(capture, live.endpoint.slug, body.body), limit, deps.copies) } : {}),
      }
      let result: StepResult
      try {
        if (breakpoint && live && body.kind === 'complete') {
          const at = breakpoint
          result = await holdThenAnswer(deps, run, connection.waitEnds, {
            capture,
            breakpoint: at,
            endpoint: live.endpoint,
            endpointSlug: live.endpoint.slug,
            url: `${deps.baseUrl()}${req.url ?? '/'}`,
            body: body.body,
            prepared,
            steps,
            goOn: (released, answerHold) => {
              const goes = { ...run, ...(run.forward ? { forward: forwardHooks(deps.forwarder, forwardSource(capture, live.endpoint.slug, body.body, released), limit, deps.copies, answerHold) } : {}) }
              const reply = prepared && released.status !== null ? { ...prepared, status: released.status } : prepared
              return answer(goes, body, reply, steps)
            },
          })
        } else {
          result = await answer(run, body, prepared, steps)
        }
      } catch (error) {
        result = await answerStoreFailure(run.res, run.socket, run.aborted(), error)
      }
      // Half-open: nothing more can arrive, and no answer is coming — release the socket.
      if (connection.peerHasEnded && !res.headersSent) req.socket.destroy()
      // Answered and its row with the writer: the schema verdict is queued now (judged in a later
      // turn), before request.responded is told, so a listener of that event finds it queued.
      if (live && body.kind === 'complete' && !preflight && result.outcome !== 'store_failed') deps.answered?.(capture.id, live.endpoint)
      finish(capture, result, steps, !breakpoint && prepared !== null && (result.outcome === 'replied' || result.outcome === 'refused'))
    } finally {
      reservation.release()
    }
  }

  async function answer(run: StepRun, body: BodyRead, prepared: PreparedReply | null, steps: Step[] | null): Promise<StepResult> {
    switch (body.kind) {
      case 'aborted':
        return { outcome: 'client_gone', status: null, headers: null, body: null, fault: null }
      case 'refused': {
        // The receiver's own error answers close the connection (`Connection: close`): the rest of
        // the request is not kept. A body still coming is read and dropped until the client has
        // the answer, so it reads the status instead of a reset (linger.ts).
        run.res.shouldKeepAlive = false
        if (body.unread) lingerAfterAnswer(run.req, run.socket, deps.linger ?? LINGER_BOUNDS, deps.refusalEnded)
        const result = await sendPrepared(run, prepared as PreparedReply)
        if (!body.unread && result.outcome === 'replied') deps.refusalEnded('read')
        return { ...result, outcome: result.outcome === 'replied' ? 'refused' : result.outcome }
      }
      case 'complete':
        if (prepared) return sendPrepared(run, prepared)
        if (steps) return runSteps(steps, run)
        return defaultReply(run, 200, 'OK')
      default: {
        const never: never = body
        return never
      }
    }
  }

  /** `aborted`: the request's signal had aborted (the caller is gone, or the receiver stops). */
  async function answerStoreFailure(res: ServerResponse | null, socket: Socket, aborted: boolean, error: unknown): Promise<StepResult> {
    const gone: StepResult = { outcome: 'store_failed', status: null, headers: null, body: null, fault: null }
    if (!(error instanceof CaptureNotStoredError) || res?.headersSent || aborted) {
      if (!res?.headersSent && !aborted) socket.destroy()
      return gone
    }
    const { headers, body } = refusalAnswer({ status: 503, reason: 'the request could not be stored; retry later', retryAfterS: RETRY_AFTER_S })
    if (res) {
      res.writeHead(503, headers.flat())
      res.end(body)
    } else {
      writeRaw(socket, 503, headers, body)
    }
    return { outcome: 'store_failed', status: 503, headers, body, fault: null }
  }

  function finish(capture: Capture, result: StepResult, steps: Step[] | null, alreadyStored: boolean): void {
    const durationMs = alreadyStored && capture.response.ms !== null ? capture.response.ms : clockOf(capture).now() - capture.receivedAt
    if (!alreadyStored) {
      // Null only for a plain default answer: anything a rule did, or any other ending, is kept.
      const hold = capture.fault?.hold
      capture.fault = steps || hold || result.outcome !== 'replied' ? { outcome: result.outcome, step: result.fault, steps, ...(hold ? { hold } : {}) } : null
      capture.response = { status: result.status, headers: result.headers ?? [], body: result.body, ms: durationMs }
      writer.outcome(encodeOutcome(capture))
    }
    emit({ type: 'request.responded', requestId: capture.id, ruleId: capture.ruleId, fault: result.fault, outcome: result.outcome, status: result.status, durationMs })
  }

  function writeRaw(socket: Socket, status: number, headers: [string, string][], body: Buffer): void {
    if (!socket.writable) return
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n')
    socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]))
  }

  /** CONNECT: Node hands over the raw socket; the receiver records it and answers 405 itself. */
  async function handleConnect(req: IncomingMessage, socket: Socket, connection: Connection): Promise<void> {
    connection.received()
    const id = deps.nextId()
    const capture = captureHead(req, connection, null, typeof id === 'number' ? id : await id)
    capture.path = req.url ?? ''
    capture.query = ''
    const refusal: Refusal = { status: 405, reason: 'CONNECT is not supported: this is a webhook receiver, not a proxy' }
    capture.refusedReason = refusal.reason
    const { headers, body } = refusalAnswer(refusal)
    headers.push(['allow', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'])
    const committed = record(capture, { status: refusal.status, headers, body, fault: null }, 'refused')
    announce(capture, null)
    let result: StepResult
    try {
      await committed()
      const ok = socket.writable
      writeRaw(socket, refusal.status, headers, body)
      result = ok ? { outcome: 'refused', status: refusal.status, headers, body, fault: null } : { outcome: 'client_gone', status: null, headers: null, body: null, fault: null }
    } catch (error) {
      result = await answerStoreFailure(null, socket, connection.closed, error)
    }
    finish(capture, result, null, result.outcome === 'refused')
  }

  return {
    onRequest(req: IncomingMessage, res: ServerResponse, connection: Connection): Promise<void> {
      return handle(req, res, connection, 'plain')
    },
    /** Expect: 100-continue: a body over a bound is refused before the client sends it. */
    onExpectContinue(req: IncomingMessage, res: ServerResponse, connection: Connection): Promise<void> {
      return handle(req, res, connection, 'continue')
    },
    /** Any other Expect value: recorded and answered 417 by the receiver (not by Node, unseen). */
    onExpectation(req: IncomingMessage, res: ServerResponse, connection: Connection): Promise<void> {
      return handle(req, res, connection, 'expectation')
    },
    onConnect: handleConnect,
  }
}
