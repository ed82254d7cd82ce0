// Puts the recorder at the command layer: every command that succeeds while a recording runs is
// handed to it with its request (already validated), its response and the engine clock's time
// when it was asked. A failed command is not a step: it changed nothing.
import type { CommandName } from '../../../shared/contract'
import type { Recorder } from '../recorder'
import type { Caller, CommandHandlers } from './control-server'

export interface RecordingHandlersOptions {
  recorder: Recorder
  /** The engine clock now (the engine may be rebuilt between commands). */
  now(): number
  /** The recording's counts changed: tell the UIs. */
  changed(): void
}

export function recordingHandlers(handlers: CommandHandlers, options: RecordingHandlersOptions): CommandHandlers {
  const out = {} as Record<string, (req: never, caller: Caller) => unknown>
  for (const [name, handler] of Object.entries(handlers) as [CommandName, (req: never, caller: Caller) => unknown][]) {
    out[name] = async (req: never, caller: Caller) => {
      if (!options.recorder.view().active) return handler(req, caller)
      const at = options.now()
      const res = await handler(req, caller)
      const before = options.recorder.view().steps
      await options.recorder.record(name, req, res, at)
      if (options.recorder.view().steps !== before) options.changed()
      return res
    }
  }
  return out as CommandHandlers
}
