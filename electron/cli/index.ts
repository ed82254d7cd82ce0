#!/usr/bin/env node
import { COMMANDS } from './commands'
import { UsageError } from './usage-error'

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length))
  const rows = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)} ${entry.summary}`)
  return ['Usage: hookloop <command> [options]', '', 'Commands:', ...rows, '', 'Run `hookloop <command> --help` for its options.'].join('\n')
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help() + '\n')
    return name ? 0 : 2
  }
  const entry = COMMANDS[name]
  if (!entry) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`)
  const command = await entry.load()
  return command(rest)
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`hookloop: ${error.message}\n`)
      process.exitCode = 2
    } else if (error instanceof Error && error.name === 'StoreError') {
      // A store that cannot be opened says why in one line (engine/store's StoreError, matched by
      // name so this entry loads no store code for commands that never open one).
      process.stderr.write(`hookloop: ${error.message}\n`)
      process.exitCode = 1
    } else {
      process.stderr.write(`hookloop: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exitCode = 1
    }
  },
)
