// `hookloop trigger PROVIDER EVENT_TYPE --to URL`: one delivery as that provider makes it (its
// headers, envelope, content type and signature, a catalog payload with fresh ids), under its
// retry policy, printed attempt by attempt. 0 the delivery succeeded, 1 it failed, 2 bad usage.
import { readFileSync } from 'node:fs'
import { Agent } from 'undici'
import { EVENT_CATALOG, OverrideError, parseOverride, type Override } from '../../shared/event-catalog'
import { apiVersionFor, ApiVersionError, isProviderId, PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../shared/providers'
import { sendFaultSchema, SEND_FAULT_TYPES, type SendFaultInput } from '../../shared/sender'
import type { AttemptView } from '../../shared/sender'
import { handshakeNeedsSecret, type HandshakeKind } from '../../shared/receiver'
import { SCHEMES } from '../../shared/signatures'
import { createRealClock, type ClockSpec } from '../engine/clock'
import { gradeHandshakeAnswer, makeHandshake, severityMark } from '../engine/conformance'
import { CatalogError } from '../engine/providers'
import { trigger } from '../engine/trigger'
import { isAsymmetricFormat, publicKeyText } from '../engine/signatures'
import { humanDuration } from '../engine/scenarios'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { policyArg } from './policy-arg'
import { HANDSHAKE_OPTION } from './signature-args'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop trigger PROVIDER EVENT_TYPE --to URL [options]
       hookloop trigger --handshake KIND --to URL [--secret K] [--json]
       hookloop trigger --list [PROVIDER]

Delivers one event to URL exactly as PROVIDER delivers it: its headers (routing, delivery id,
user agent, API version), its body envelope and content type, its signature, and its retry
policy on failure. The payload comes from the event catalog, with fresh ids and times.

{options}
Providers: ${PROVIDER_IDS.join(', ')}
Exit status: 0 the delivery succeeded, 1 it failed, 2 bad usage.`

const OPTIONS = {
  to: { type: 'string', value: 'URL', help: "where to deliver (your app, or a Hookloop endpoint's URL)" },
  secret: { type: 'string', multiple: true, value: 'K', help: 'the signing secret (repeat it to sign with several, as during a rotation); default: a fresh one, printed on stderr' },
  set: { type: 'string', multiple: true, value: 'PATH=VALUE', help: 'override one field of the body, e.g. --set data.object.amount=500 (VALUE is JSON when it parses as JSON, else text); repeatable' },
  fixture: { type: 'string', value: 'FILE', help: "a JSON file holding the payload (the part the envelope wraps) instead of the catalog's; any EVENT_TYPE then goes" },
  policy: { type: 'string', value: 'P', help: "retry policy preset or JSON file (default: the provider's)" },
  clock: { type: 'enum', values: ['virtual', 'real'], default: 'virtual', value: 'C', help: 'virtual: the whole schedule at once, signatures still carry the real time; real: waits between attempts in real time' },
  fault: { type: 'string', multiple: true, value: 'F', help: `a sending-side fault: ${SEND_FAULT_TYPES.join(', ')}, or its JSON ({"type": "stale-timestamp", "by_s": 60}); repeatable` },
  header: { type: 'string', multiple: true, value: 'H', help: "an extra header 'Name: value' on every attempt; repeatable" },
  'signing-time': { type: 'enum', values: ['auto', 'clock', 'wall'], default: 'auto', value: 'S', help: 'which time signatures carry' },
  'api-version': { type: 'string', value: 'V', help: "the provider's API version the delivery follows (Stripe's api_version, Shopify's X-Shopify-API-Version, Square's Square-Version); default: the provider's newest (--list PROVIDER shows them)" },
  json: { type: 'boolean', help: 'print the result as JSON' },
  handshake: { ...HANDSHAKE_OPTION, help: "instead of an event, make the verification handshake a provider makes before it delivers, and grade the answer; slack, zoom and x-crc need --secret (the signing secret / secret token / consumer secret), twitch-challenge the subscription's secret, discord-ping the Ed25519 private key (whsk_…) whose public key the app holds" },
  list: { type: 'boolean', help: "list the providers, or one provider's event types (--list PROVIDER), and exit" },
} as const satisfies OptionSpecs

function listing(provider: string | undefined): string {
  if (provider === undefined) return PROVIDER_IDS.map((id) => `${id.padEnd(18)} ${PROVIDERS[id].label} (${EVENT_CATALOG[id].length} event types)`).join('\n')
  const id = providerArg(provider)
  const versions = PROVIDERS[id].apiVersions
  const header = versions ? `API versions: ${versions.join(', ')} (the first is the default)\n` : ''
  return header + EVENT_CATALOG[id].map((e) => `${e.type.padEnd(32)} ${e.description}`).join('\n')
}

function providerArg(value: string): ProviderId {
  if (isProviderId(value)) return value
  throw new UsageError(`trigger: unknown provider "${value}" (one of ${PROVIDER_IDS.join(', ')})`)
}

function faultArg(text: string): SendFaultInput {
  let raw: unknown = { type: text }
  if (text.trim().startsWith('{')) {
    try {
      raw = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`trigger: --fault ${text} is not JSON: ${(error as Error).message}`)
    }
  }
  const parsed = sendFaultSchema.safeParse(raw)
  if (!parsed.success) throw new UsageError(`trigger: --fault ${text}: ${parsed.error.issues[0]?.message ?? 'invalid'} (faults: ${SEND_FAULT_TYPES.join(', ')})`)
  return raw as SendFaultInput
}

function headerArg(text: string): [string, string] {
  const colon = text.indexOf(':')
  if (colon <= 0) throw new UsageError(`trigger: --header "${text}" is not 'Name: value'`)
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()]
}

function readFixture(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown
  } catch (error) {
    throw new UsageError(`trigger: --fixture ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

async function handshake(kind: HandshakeKind, to: string | undefined, secret: string | undefined, json: boolean): Promise<number> {
  if (!to || !/^https?:\/\/[^\s]+$/.test(to)) throw new UsageError(`trigger: --to must be an http:// or https:// URL${to ? `, got "${to}"` : ''}`)
  if (handshakeNeedsSecret(kind) && secret === undefined) throw new UsageError(`trigger: --handshake ${kind} needs --secret (its answer, or its request's signature, depends on it)`)
  // A one-off exchange outside any delivery: real time, the provider's own time limit; graded as
  // `hookloop check --handshake` grades it.
  const dispatcher = new Agent({ connections: 1 })
  let check
  try {
    check = gradeHandshakeAnswer(await makeHandshake(kind, { url: to, secret: secret ?? '', clock: createRealClock(), dispatcher }), secret ?? '')
  } finally {
    await dispatcher.close()
  }
  const probe = check.probes[0]
  if (json) process.stdout.write(JSON.stringify({ ok: check.passed, kind, severity: check.severity, detail: check.detail, status: probe?.status_code ?? null, answer: probe?.response_excerpt ?? null }, null, 2) + '\n')
  else process.stdout.write(`${severityMark(check.severity)} ${kind} → ${to}: ${check.detail}\n${check.severity === 'pass' ? '' : `    fix: ${check.fix}\n`}`)
  return check.passed ? 0 : 1
}

function attemptLine(a: AttemptView, first: number): string {
  const at = a.startedAt - first
  const when = `+${at} ms`.padEnd(14) + `(${at === 0 ? '0' : humanDuration(at)})`.padEnd(16)
  const faults = a.faults.length ? ` fault ${a.faults.map((f) => f.type).join(', ')}` : ''
  const took = a.durationMs === null ? '' : ` in ${humanDuration(a.durationMs)}`
  return `  #${String(a.n).padEnd(3)} ${when} ${(a.outcome + took).padEnd(26)} ${a.decision}${faults}${a.error ? ` — ${a.error}` : ''}`
}

export const triggerCommand: Command = async (args) => {
  const parsed = commandArgs('trigger', USAGE, args, OPTIONS, true)
  if (!parsed) return 0
  const v = parsed.values
  if (v.list) {
    process.stdout.write(listing(parsed.positionals[0]) + '\n')
    return 0
  }
  if (v.handshake !== undefined) return handshake(v.handshake, v.to, v.secret?.[0], v.json)
  const [providerText, eventType, ...extra] = parsed.positionals
  if (!providerText || !eventType || extra.length > 0) throw new UsageError('trigger: give PROVIDER and EVENT_TYPE (hookloop trigger --help; --list shows them)')
  const provider = providerArg(providerText)
  if (!v.to || !/^https?:\/\/[^\s]+$/.test(v.to)) throw new UsageError(`trigger: --to must be an http:// or https:// URL${v.to ? `, got "${v.to}"` : ''}`)
  let overrides: Override[]
  try {
    overrides = (v.set ?? []).map(parseOverride)
  } catch (error) {
    if (error instanceof OverrideError) throw new UsageError(`trigger: --set ${error.message}`)
    throw error
  }
  const clock: ClockSpec = { mode: v.clock }
  const pack = PROVIDERS[provider]
  let apiVersion: string | null
  try {
    apiVersion = apiVersionFor(pack, v['api-version'])
  } catch (error) {
    if (error instanceof ApiVersionError) throw new UsageError(`trigger: --${error.message.replace(/^api_version/, 'api-version')}`)
    throw error
  }
  const out = process.stdout
  let firstAt: number | null = null
  let result
  try {
    result = await trigger({
      provider,
      eventType,
      url: v.to,
      ...(v.secret ? { secrets: v.secret } : {}),
      overrides,
      ...(v.fixture ? { fixture: readFixture(v.fixture) } : {}),
      ...(v.policy ? { policy: policyArg('trigger', v.policy) } : {}),
      clock,
      faults: (v.fault ?? []).map(faultArg),
      headers: Object.fromEntries((v.header ?? []).map(headerArg)),
      signingTime: v['signing-time'],
      ...(apiVersion ? { apiVersion } : {}),
      onAttempt: v.json
        ? undefined
        : (a) => {
            if (firstAt === null) {
              firstAt = a.startedAt
              out.write(`${pack.label} ${eventType} → ${v.to} (${clock.mode} clock, policy ${v.policy ?? pack.policy}${apiVersion ? `, API version ${apiVersion}` : ''})\n`)
            }
            out.write(attemptLine(a, firstAt) + '\n')
          },
    })
  } catch (error) {
    if (error instanceof CatalogError || error instanceof OverrideError) throw new UsageError(`trigger: ${error.message}`)
    const message = error instanceof Error ? error.message : String(error)
    if (/secret|subscription|policy/i.test(message)) throw new UsageError(`trigger: ${message}`)
    throw error
  }
  if (!v.secret && result.secret) process.stderr.write(`hookloop: signed with a fresh secret: ${result.secret}\n`)
  // A key-pair scheme's consumer holds the public key, not the secret that signed.
  const format = SCHEMES[PROVIDERS[provider].scheme].secretFormat
  if (result.secret && isAsymmetricFormat(format)) {
    const key = publicKeyText(result.secret, format)
    if (typeof key === 'string') process.stderr.write(`hookloop: the consumer verifies with the public key: ${key}\n`)
  }
  if (v.json) out.write(JSON.stringify({ ok: result.status === 'succeeded', provider, event_type: eventType, ...result }, null, 2) + '\n')
  else {
    const n = result.attempts.length
    const seen = result.provider_event_id
    // The consumer's log shows the provider's id; Hookloop's timeline and `hookloop export` show its own.
    const name = seen && seen.value !== result.event_id ? `${seen.value} (${seen.where}; Hookloop event ${result.event_id})` : seen ? `${seen.value} (${seen.where})` : result.event_id
    out.write(`\nevent ${name}: ${result.status} after ${n} attempt${n === 1 ? '' : 's'}, ${humanDuration(result.clock_ms)} of clock time in ${humanDuration(Math.round(result.wall_ms))}\n`)
  }
  return result.status === 'succeeded' ? 0 : 1
}
