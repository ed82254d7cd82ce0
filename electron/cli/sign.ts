// `hookloop sign`: the headers a provider would send for a body, as one JSON object.
import type { Command } from './commands'
import { sign } from '../engine/signatures'
import { commandArgs, type OptionSpecs } from './command-args'
import { COMMON_OPTIONS, customOptions, readBytes, requireOption, requireScheme } from './signature-args'
import { UsageError } from './usage-error'

const HELP = `Usage: hookloop sign --scheme S --secret K [--secret K2 …] --body-file F [options]

Prints a JSON object of the headers to send (lower-case names) and nothing else (--json or not).
The body is signed as the exact bytes of F ("-" reads stdin).

{options}`

const OPTIONS = {
  ...COMMON_OPTIONS,
  id: { type: 'string', value: 'ID', help: 'message id (default: msg_… for standard-webhooks/svix, a UUID otherwise)' },
  timestamp: { type: 'number', whole: true, min: 0, value: 'UNIX', help: 'signing time in Unix seconds (default: now)' },
  // Accepted for scripts that pass it to every command.
  json: { type: 'boolean', help: 'accepted: the output is JSON either way' },
} as const satisfies OptionSpecs

export const signCommand: Command = async (args) => {
  const parsed = commandArgs('sign', HELP, args, OPTIONS)
  if (!parsed) return 0
  const values = parsed.values
  const scheme = requireScheme(values.scheme)
  const [first, ...additionalSecrets] = values.secret ?? []
  const secret = requireOption(first, 'secret')
  const body = readBytes(requireOption(values['body-file'], 'body-file'), 'body-file')
  const custom = customOptions(scheme, values)
  let headers: Record<string, string>
  try {
    headers = sign(scheme, { body, secret, additionalSecrets, id: values.id, timestamp: values.timestamp, url: values.url, custom })
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  process.stdout.write(JSON.stringify(headers, null, 2) + '\n')
  return 0
}
