// parseArgs for one subcommand, its errors as a one-line UsageError ("conform: Unknown option
// '--x'…"; Node's messages can span lines), and the --help text printed when asked.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './usage-error'

type Options = NonNullable<ParseArgsConfig['options']>

/** The parsed values and positionals, or null when --help was printed (to `out`). */
export function commandArgs<O extends Options>(command: string, usage: string, args: string[], options: O, allowPositionals = false, out: NodeJS.WritableStream = process.stdout) {
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } as O & { help: { type: 'boolean'; short: 'h'; default: false } } })
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}`)
  }
  if ((parsed.values as Record<string, unknown>).help) {
    out.write(usage + '\n')
    return null
  }
  return parsed
}
