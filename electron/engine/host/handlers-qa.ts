// The QA and support commands: recording a session into a scenario, running a scenario file,
// the public tunnel on demand, and the two conformance checks. Engine errors become HostErrors
// with a code the UI can act on and a message that names what is wrong.
import { isPolicyPresetId, POLICY_PRESETS, POLICY_PRESET_IDS } from '../../../shared/policy-presets'
import { ConsumerCheckInputError, ConsumerUnreachableError, runConsumerCheck } from '../conformance/consumer'
import { checkSenderConformance, UnknownEndpointError } from '../conformance/sender'
import { ExportSelectionError, exportSelection, ImportError, parseImportFile, replayItems } from '../exports'
import { RecordingError, type Recorder } from '../recorder/recorder'
import type { CommandHandlers } from './control-server'
import type { HandlerContext, QaCommandName } from './handlers'
import { HostError } from './host-error'
import type { ScenarioRuns } from './scenario-runs'

export interface QaContext {
  base: HandlerContext
  recorder: Recorder
  runs: ScenarioRuns
  recordingChanged(): void
  /** Rebuilds the engine with a tunnel through `host`, or without one (null). */
  setTunnel(tunnel: { host: string; subdomain?: string } | null): Promise<void>
}


function asQaError(error: unknown): unknown {
  if (error instanceof RecordingError) return new HostError('conflict', error.message)
  if (error instanceof ConsumerCheckInputError) return new HostError('bad_request', error.message)
  if (error instanceof ConsumerUnreachableError) return new HostError('unavailable', error.message)
  if (error instanceof UnknownEndpointError) return new HostError('not_found', error.message)
  if (error instanceof ExportSelectionError) return new HostError('bad_request', `export: ${error.message}`)
  if (error instanceof ImportError) return new HostError('bad_request', `import: ${error.message}`)
  if (error instanceof TypeError || error instanceof RangeError) return new HostError('bad_request', error.message)
  return error
}

export function createQaHandlers(ctx: QaContext, tunnelView: () => ReturnType<CommandHandlers['tunnel.stop']>): Pick<CommandHandlers, QaCommandName> {
  const guarded = <A, R>(fn: (req: A) => Promise<R> | R) => async (req: A): Promise<R> => {
    try {
      return await fn(req)
    } catch (error) {
      throw asQaError(error)
    }
  }
  return {
    'record.start': guarded(() => {
      const view = ctx.recorder.start()
      ctx.recordingChanged()
      return view
    }),
    'record.stop': guarded(() => {
      try {
        const result = ctx.recorder.stop()
        return { text: result.text, problems: result.problems, notes: result.notes }
      } finally {
        ctx.recordingChanged()
      }
    }),
    'scenario.run': guarded((req) => ctx.runs.start(req.text)),
    'scenario.cancel': guarded((req) => {
      if (!ctx.runs.cancel(req.runId)) throw new HostError('not_found', `scenario run #${req.runId} is not running`)
      return { ok: true as const }
    }),
    'tunnel.start': guarded(async (req) => {
      await ctx.setTunnel({ host: req.host, ...(req.subdomain ? { subdomain: req.subdomain } : {}) })
      return tunnelView()
    }),
    'tunnel.stop': guarded(async () => {
      await ctx.setTunnel(null)
      return tunnelView()
    }),
    'check.consumer': guarded((req) =>
      runConsumerCheck({
        url: req.url,
        scheme: req.scheme,
        secret: req.secret,
        ...(req.timeoutMs === undefined ? {} : { timeoutMs: req.timeoutMs }),
        ...(req.latencySamples === undefined ? {} : { latencySamples: req.latencySamples }),
      }),
    ),
    'check.sender': guarded((req) => {
      const { engine } = ctx.base.current()
      const endpoint = engine.receiver.endpoints.get(req.endpointId)
      if (!endpoint) throw new HostError('not_found', `endpoint ${req.endpointId} does not exist`)
      if (!isPolicyPresetId(req.policyId)) throw new HostError('bad_request', `check.sender: policyId: unknown policy "${req.policyId}" (one of ${POLICY_PRESET_IDS.join(', ')})`)
      return checkSenderConformance(engine.db, {
        endpoint: endpoint.slug,
        policy: POLICY_PRESETS[req.policyId],
        tolerance: {
          ...(req.toleranceMs === undefined ? {} : { ms: req.toleranceMs }),
          ...(req.tolerancePct === undefined ? {} : { pct: req.tolerancePct }),
        },
        asOf: engine.clock.now(),
      })
    }),
    'export.selection': guarded((req) => {
      const { engine } = ctx.base.current()
      // exported_at is when the person made the file: wall time, whatever the engine's clock.
      const text = exportSelection(engine.db, { deliveryIds: req.deliveryIds, requestIds: req.requestIds, format: req.format, keepSecrets: req.keepSecrets, now: Date.now() })
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')
      const file = `hookloop-${stamp}`
      switch (req.format) {
        case 'har':
          return { text, fileName: `${file}.har`, mime: 'application/json' }
        case 'curl':
          return { text, fileName: `${file}.sh`, mime: 'text/x-shellscript' }
        case 'case':
          return { text, fileName: `${file}.case.json`, mime: 'application/json' }
        default: {
          const never: never = req.format
          return never
        }
      }
    }),
    'import.replay': guarded(async (req) => {
      const { engine } = ctx.base.current()
      const parsed = parseImportFile(req.text)
      let to: string
      if ('url' in req.target) to = req.target.url
      else {
        const endpoint = engine.receiver.endpoints.get(req.target.endpointId)
        if (!endpoint) throw new HostError('not_found', `endpoint ${req.target.endpointId} does not exist`)
        to = engine.receiver.endpointUrl(endpoint.slug)
      }
      const results = await replayItems(parsed.items, { to, ...(req.resign ? { resign: { scheme: req.resign.scheme, secret: req.resign.secret } } : {}) })
      return { kind: parsed.kind, to, results }
    }),
  }
}
