// `hookloop sign`: the headers a provider would send for a body, as one JSON object.
import type { Command } from './commands'
import { sign } from '../engine/signatures'
import { COMMON_OPTIONS, CUSTOM_HELP, SCHEME_LIST, customOptions, parseOptions, parseUnixOption, readBytes, requireOption, requireScheme } from './signature-args'
import { UsageError } from './usage-error'

const HELP = `Usage: hookloop sign --scheme S --secret K [--secret K2 …] --body-file F [--id ID] [--timestamp UNIX] [--url URL] [--json]

Prints a JSON object of the headers to send (lower-case names) and nothing else (--json or not).
The body is signed as the exact bytes of F ("-" reads stdin).

  --scheme S        signature scheme
  --secret K        the signing secret, as the provider shows it (e.g. whsec_…, or whsk_… for
                    Standard Webhooks' Ed25519 v1a); repeat it to sign with several secrets at
                    once, as during a rotation (standard-webhooks, svix, stripe, paddle)
  --body-file F     file holding the request body
  --id ID           message id (default: msg_… for standard-webhooks/svix, a UUID otherwise)
  --timestamp UNIX  signing time in Unix seconds (default: now)
  --url URL         public URL the request goes to (required for twilio and square)

${SCHEME_LIST}

${CUSTOM_HELP}`

// --json is accepted for scripts that pass it to every command: the output is JSON either way.
const OPTIONS = { ...COMMON_OPTIONS, id: { type: 'string' }, timestamp: { type: 'string' }, json: { type: 'boolean' } } as const

export const signCommand: Command = async (args) => {
  const values = parseOptions(args, OPTIONS, HELP)
  if (!values) return 0
  const scheme = requireScheme(values.scheme)
  const secrets = values.secret ?? []
  const secret = requireOption(secrets[0], 'secret')
  const body = readBytes(requireOption(values['body-file'], 'body-file'), 'body-file')
  const custom = customOptions(scheme, values)
  let headers: Record<string, string>
  try {
    headers = sign(scheme, { body, secret, additionalSecrets: secrets.slice(1), id: values.id, timestamp: parseUnixOption(values.timestamp, 'timestamp'), url: values.url, custom })
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  process.stdout.write(JSON.stringify(headers, null, 2) + '\n')
  return 0
}
