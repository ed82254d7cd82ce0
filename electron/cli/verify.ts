// `hookloop verify`: checks a request's signature and prints the verdict as one JSON object.
// Exit 0 valid, 1 invalid, 2 bad usage.
import type { Command } from './commands'
import type { HeaderMap } from '../engine/signatures'
import { verify } from '../engine/signatures'
import { COMMON_OPTIONS, CUSTOM_HELP, SCHEME_LIST, customOptions, parseOptions, parseUnixOption, readBytes, requireOption, requireScheme } from './signature-args'
import { UsageError } from './usage-error'

const HELP = `Usage: hookloop verify --scheme S --secret K [--secret K2 …] --body-file F --headers-file H [--now UNIX] [--url URL] [--json]

Prints the verification result as one JSON object: valid, scheme, reason, detail (a sentence
that names the likely mistake), and expected/received signatures. Exit 0 when valid, 1 when
invalid, 2 on bad usage. The body is checked as the exact bytes of F.

  --scheme S         signature scheme
  --secret K         a secret; repeat for rotation (valid when any matches, secretIndex says which)
  --body-file F      file holding the request body exactly as received ("-" reads stdin)
  --headers-file H   JSON object of header names to values (string or array of strings; "-" = stdin)
  --now UNIX         the time to check timestamps against, Unix seconds (default: now)
  --url URL          public URL the provider called (twilio, square; the tunnel URL, not 127.0.0.1)
  --tolerance SEC    override the scheme's timestamp tolerance in seconds

${SCHEME_LIST}

${CUSTOM_HELP}`

// --json is accepted for scripts that pass it to every command: the output is JSON either way.
const OPTIONS = { ...COMMON_OPTIONS, 'headers-file': { type: 'string' }, now: { type: 'string' }, tolerance: { type: 'string' }, json: { type: 'boolean' } } as const

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
  const values = parseOptions(args, OPTIONS, HELP)
  if (!values) return 0
  const scheme = requireScheme(values.scheme)
  const secrets = values.secret ?? []
  if (secrets.length === 0) throw new UsageError('missing --secret')
  const bodyPath = requireOption(values['body-file'], 'body-file')
  const headersPath = requireOption(values['headers-file'], 'headers-file')
  if (bodyPath === '-' && headersPath === '-') throw new UsageError('--body-file and --headers-file cannot both read stdin')
  const tolerance = values.tolerance === undefined ? undefined : parseUnixOption(values.tolerance, 'tolerance')
  const custom = customOptions(scheme, values, tolerance)
  const now = parseUnixOption(values.now, 'now')
  const body = readBytes(bodyPath, 'body-file')
  const headers = parseHeaders(readBytes(headersPath, 'headers-file'), headersPath)

  const result = verify(scheme, { body, headers, secrets, url: values.url, now, toleranceSeconds: tolerance, custom })
  if (result.reason === 'bad_options') throw new UsageError(result.detail)
  process.stdout.write(JSON.stringify(result, null, 2) + '\n')
  return result.valid ? 0 : 1
}
