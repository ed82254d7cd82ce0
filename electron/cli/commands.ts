// The `hookloop` subcommands. Each module exports one function taking its own arguments and
// resolving to the process exit code; bad usage throws UsageError (exit 2).
export type Command = (args: string[]) => Promise<number>

export interface CommandEntry {
  summary: string
  load: () => Promise<Command>
}

// Loaded lazily so `hookloop sign` never pays for the receiver or the UI server.
export const COMMANDS: Record<string, CommandEntry> = {}
