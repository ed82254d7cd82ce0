// Recording a session into a scenario, and running a scenario file on a fresh engine of its own.
import type { Recorder } from '../recorder'
import type { CommandHandlers } from './control-server'
import type { SqlEngine } from '../store'
import { HostError, needsDataFolder } from './host-error'
import type { ScenarioRuns } from './scenario-runs'

export interface ScenarioHandlersContext {
  recorder: Recorder
  runs: ScenarioRuns
  /** The recording started or stopped: tell the UIs. */
  recordingChanged(): void
  /** The store the engine runs on now (a recording reads a data folder's file). */
  store(): SqlEngine
}

export function createScenarioHandlers(ctx: ScenarioHandlersContext) {
  return {
    'record.start': () => {
      needsDataFolder(
        ctx.store(),
        'recording a session',
        "the recorder reads each event's deliveries from the store at once, as the event is sent, which only a data folder's SQLite file answers",
        'a scenario file runs on it (hookloop run FILE --store postgres://…)',
      )
      const view = ctx.recorder.start()
      ctx.recordingChanged()
      return view
    },
    'record.stop': async () => {
      try {
        const result = await ctx.recorder.stop()
        return { text: result.text, problems: result.problems, notes: result.notes }
      } finally {
        ctx.recordingChanged()
      }
    },
    'scenario.run': (req) => ctx.runs.start(req.text),
    'scenario.cancel': (req) => {
      if (!ctx.runs.cancel(req.runId)) throw new HostError('not_found', `scenario run #${req.runId} is not running`)
      return { ok: true as const }
    },
  } satisfies Partial<CommandHandlers>
}
