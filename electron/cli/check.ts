// `hookloop check URL --scheme S --secret K [...]`: the consumer conformance check. Sends a
// battery of deliveries to someone's webhook endpoint and prints a report card. Exit codes: 0
// every check passes (warnings allowed), 1 one fails, 2 bad usage or an unreachable URL.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { CONSUMER_CHECK_DEFAULTS } from '../../shared/conformance'
import { handshakeNeedsSecret } from '../../shared/receiver'
import { SecretFormatError } from '../engine/signatures'
import { ConsumerCheckInputError, ConsumerUnreachableError, formatReportCard, runConsumerCheck } from '../engine/conformance'
import type { Command } from './commands'
import { commandArgs, type OptionSpecs } from './command-args'
import { HANDSHAKE_OPTION, SCHEME_OPTIONS, customOptions, readBytes, requireOption, requireScheme } from './signature-args'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop check URL --scheme S --secret K [options]
       hookloop check URL --handshake KIND [--secret K] [--report OUT.json] [--json]

Sends a battery of signed deliveries to the webhook endpoint at URL and grades the answers: a
valid event gets 2xx in time, a duplicate gets 2xx, a wrong or missing signature, a stale
timestamp and a malformed body get 4xx, nothing redirects; p50/p95 latency. With --handshake,
first makes that provider's verification handshake and grades the answer (the challenge or token
echoed, the HMAC, the content type, the provider's time limit); without --scheme, only that.

{options}
Exit status: 0 every check passes (warnings allowed), 1 a check fails, 2 bad usage or unreachable URL.`

const positive = { type: 'number', whole: true, min: 1, value: 'N' } as const

const OPTIONS = {
  ...SCHEME_OPTIONS,
  secret: { type: 'string', value: 'K', help: "the endpoint's signing secret (for a handshake: the Slack signing secret, the Zoom secret token or the X consumer secret)" },
  handshake: { ...HANDSHAKE_OPTION, help: "make this provider's verification handshake first and grade the answer" },
  'timeout-ms': { ...positive, help: `provider timeout per request (default ${CONSUMER_CHECK_DEFAULTS.timeoutMs})` },
  'warn-ms': { ...positive, help: `warn when a 2xx takes longer (default ${CONSUMER_CHECK_DEFAULTS.warnAboveMs})` },
  'event-type': { type: 'string', value: 'T', help: `type of the generated events (default ${CONSUMER_CHECK_DEFAULTS.eventType})` },
  'payload-file': { type: 'string', value: 'F', help: 'send this JSON instead of the generated event (its "id" is replaced per request)' },
  samples: { ...positive, help: `valid events sent to measure latency (default ${CONSUMER_CHECK_DEFAULTS.latencySamples})` },
  report: { type: 'string', value: 'OUT.json', help: 'also write the result as JSON' },
  json: { type: 'boolean', help: 'print the result as JSON instead of the report card' },
} as const satisfies OptionSpecs

function readPayload(path: string | undefined): unknown {
  if (path === undefined) return undefined
  const text = readBytes(path, 'payload-file').toString('utf8').replace(/^\uFEFF/, '')
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new UsageError(`check: --payload-file ${path} is not valid JSON (${(error as Error).message})`)
  }
}

export async function check(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const parsed = commandArgs('check', USAGE, args, OPTIONS, true, out)
  if (!parsed) return 0
  const v = parsed.values
  const [url, ...extra] = parsed.positionals
  if (!url) throw new UsageError('check: which endpoint? (hookloop check URL --scheme S --secret K, or --handshake KIND)')
  if (extra.length) throw new UsageError(`check: one URL at a time (got also ${extra.join(', ')})`)
  const { handshake, 'timeout-ms': timeoutMs, 'warn-ms': warnAboveMs, samples: latencySamples } = v
  const scheme = handshake !== undefined && v.scheme === undefined ? undefined : requireScheme(v.scheme)
  const secret = scheme !== undefined || (handshake !== undefined && handshakeNeedsSecret(handshake)) ? requireOption(v.secret, 'secret') : (v.secret ?? '')
  const custom = scheme === undefined ? undefined : customOptions(scheme, v)
  const payload = readPayload(v['payload-file'])

  let result
  try {
    result = await runConsumerCheck({
      url,
      ...(scheme === undefined ? {} : { scheme }),
      ...(handshake === undefined ? {} : { handshake }),
      secret,
      ...(custom ? { custom } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(warnAboveMs === undefined ? {} : { warnAboveMs }),
      ...(latencySamples === undefined ? {} : { latencySamples }),
      ...(v['event-type'] === undefined ? {} : { eventType: v['event-type'] }),
      ...(payload === undefined ? {} : { payload }),
      // A real endpoint can take seconds per answer: show that the battery is moving.
      ...(v.json ? {} : { onProbe: (kind, index, total, o) => err.write(`  ${index < 0 ? '[handshake]' : `[${index + 1}/${total}]`} ${kind === 'handshake' ? handshake : kind}: ${o.status_code ?? o.outcome} in ${o.duration_ms} ms\n`) }),
    })
  } catch (error) {
    if (error instanceof ConsumerUnreachableError) {
      err.write(`hookloop: ${error.message}\n`)
      return 2
    }
    if (error instanceof ConsumerCheckInputError || error instanceof SecretFormatError) throw new UsageError(`check: ${error.message}`)
    throw error
  }
  out.write(v.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatReportCard(result)}\n`)
  if (v.report !== undefined) {
    try {
      mkdirSync(dirname(resolve(v.report)), { recursive: true })
      writeFileSync(v.report, `${JSON.stringify(result, null, 2)}\n`)
    } catch (error) {
      err.write(`hookloop: cannot write the report to ${v.report}: ${(error as Error).message}\n`)
      return 1
    }
  }
  return result.ok ? 0 : 1
}

export const checkCommand: Command = (args) => check(args)
