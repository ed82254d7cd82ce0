// `hookloop verify`: checks a request's signature and prints the verdict as one JSON object.
// Exit 0 valid, 1 invalid, 2 bad usage.
import type { Command } from './commands'
import type { HeaderMap } from '../engine/signatures'
import { verify } from '../engine/signatures'
import { commandArgs, type OptionSpecs } from './command-args'
import { COMMON_OPTIONS, customOptions, readBytes, requireOption, requireScheme } from './signature-args'
import { UsageError } from './usage-error'

const HELP = `Usage: hookloop verify --scheme S --secret K [--secret K2 …] --body-file F --headers-file H [options]

Prints the verification result as one JSON object: valid, scheme, reason, detail (a sentence
that names the likely mistake), and expected/received signatures. Exit 0 when valid, 1 when
invalid, 2 on bad usage. The body is checked as the exact bytes of F; with several secrets it is
valid when any matches (secretIndex says which).

{options}`

const OPTIONS = {
  ...COMMON_OPTIONS,
  'headers-file': { type: 'string', value: 'H', help: 'JSON object of header names to values (string or array of strings; "-" = stdin)' },
  now: { type: 'number', whole: true, min: 0, value: 'UNIX', help: 'the time to check timestamps against, Unix seconds (default: now)' },
  tolerance: { type: 'number', whole: true, min: 0, value: 'SEC', help: "override the scheme's timestamp tolerance in seconds" },
  // Accepted for scripts that pass it to every command.
  json: { type: 'boolean', help: 'accepted: the output is JSON either way' },
} as const satisfies OptionSpecs

function parseHeaders(bytes: Buffer, path: string): HeaderMap {
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString('utf8'))
  } catch (error) {
    throw new UsageError(`--headers-file ${path} is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--headers-file ${path} must hold a JSON object of header names to values`)
  const headers: HeaderMap = {}
  for (const [name, value] of Object.entries(parsed)) {
    // A hand-written file often has a bare number for a timestamp; a header is text either way.
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value)
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) headers[name] = value
    else throw new UsageError(`header "${name}" in --headers-file must be a string or an array of strings`)
  }
  return headers
}

export const verifyCommand: Command = async (args) => {
  const parsed = commandArgs('verify', HELP, args, OPTIONS)
  if (!parsed) return 0
  const values = parsed.values
  const scheme = requireScheme(values.scheme)
  const secrets = values.secret ?? []
  if (secrets.length === 0) throw new UsageError('missing --secret')
  const bodyPath = requireOption(values['body-file'], 'body-file')
  const headersPath = requireOption(values['headers-file'], 'headers-file')
  if (bodyPath === '-' && headersPath === '-') throw new UsageError('--body-file and --headers-file cannot both read stdin')
  const { tolerance, now } = values
  const custom = customOptions(scheme, values, tolerance)
  const body = readBytes(bodyPath, 'body-file')
  const headers = parseHeaders(readBytes(headersPath, 'headers-file'), headersPath)

  const result = verify(scheme, { body, headers, secrets, url: values.url, now, toleranceSeconds: tolerance, custom })
  if (result.reason === 'bad_options') throw new UsageError(result.detail)
  process.stdout.write(JSON.stringify(result, null, 2) + '\n')
  return result.valid ? 0 : 1
}
