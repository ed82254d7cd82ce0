// Who sent the requests of an incident file that carries no setup (a customer's HAR), and where
// each request carries its event id: the provider packs (shared/providers) recognised by their
// signature header, user agent and own headers, and the receiver's dedupe presets
// (shared/receiver/endpoints.ts) for where that provider puts its id — a header (webhook-id, svix-id,
// X-GitHub-Delivery) or a body field (Stripe's `id`). Pure.
import { PROVIDERS, type ProviderPack } from '../../../shared/providers'
import { DEDUPE_PRESETS, parseJsonPath, readJsonPath, type DedupeKey } from '../../../shared/receiver'
import { SCHEMES, type SchemeId } from '../../../shared/signatures'
import { headerValue } from '../exports'
import type { IncidentRequest } from '../exports'
import { jsonBody } from './incident-deliveries'

const HOOKLOOP_ID_HEADER = 'x-hookloop-event-id'

/** The pack whose requests these look like, and what gave it away; null when none fits. */
export interface RecognisedProvider {
  pack: ProviderPack
  /** In words, for the scenario's description: "webhook-signature, user agent GitHub-Hookshot/…". */
  clues: string[]
}

/** A user agent's product: the text before its first '/', space or `{…}` ("Stripe", "GitHub-Hookshot"). */
const product = (userAgent: string): string => userAgent.split(/[/\s{]/)[0]!.toLowerCase()

function score(pack: ProviderPack, requests: readonly IncidentRequest[]): { points: number; clues: string[] } {
  const has = (name: string) => requests.some((r) => headerValue(r.headers, name) !== undefined)
  const clues: string[] = []
  let points = 0
  const signature = SCHEMES[pack.scheme].signatureHeader
  if (signature && has(signature)) {
    points += 2
    clues.push(signature)
  }
  if (pack.eventIdHeader !== HOOKLOOP_ID_HEADER && has(pack.eventIdHeader)) {
    points += 1
    clues.push(pack.eventIdHeader)
  }
  for (const header of pack.headers) {
    const name = header.name.toLowerCase()
    if (name === 'user-agent') {
      const own = product(header.value)
      if (own !== '' && requests.some((r) => product(headerValue(r.headers, 'user-agent') ?? '') === own)) {
        points += 4
        clues.push(`user agent ${header.value.split(/[/\s{]/)[0]}`)
      }
    } else if (name !== 'accept' && name !== 'content-type' && header.on !== 'retries' && has(name)) {
      points += 1
      clues.push(name)
    }
  }
  return { points, clues }
}

/**
 * The best-fitting pack: a signature header alone (2) is enough, a user agent counts most. Among
 * packs that fit as well (several providers share a scheme), the scheme's own generic pack.
 */
export function recogniseProvider(requests: readonly IncidentRequest[]): RecognisedProvider | null {
  let best: { pack: ProviderPack; points: number; clues: string[] } | null = null
  for (const pack of Object.values(PROVIDERS)) {
    const { points, clues } = score(pack, requests)
    if (points < 2) continue
    if (!best || points > best.points || (points === best.points && pack.id === pack.scheme && best.pack.id !== best.pack.scheme)) best = { pack, points, clues }
  }
  return best ? { pack: best.pack, clues: best.clues } : null
}

/** Where an endpoint's requests carry their event id. */
export interface IdLocation {
  /** The endpoint's dedupe key in the scenario. */
  dedupe: DedupeKey
  /** The header the replay sends the event id in (and the rules match on). */
  sendHeader: string
  /** In words, for notes: "header webhook-id", "body field id". */
  where: string
}

const headerLocation = (name: string): IdLocation => ({ dedupe: { type: 'header', name }, sendHeader: name.toLowerCase(), where: `header ${name.toLowerCase()}` })

/**
 * The provider's own dedupe preset first (Stripe's body `id`), then its id header, then any
 * preset header the requests carry, then the scheme's id header; Hookloop's own header last.
 */
export function idLocation(provider: ProviderPack | null, scheme: SchemeId | null, requests: readonly IncidentRequest[]): IdLocation {
  const presets = Object.entries(DEDUPE_PRESETS) as [string, DedupeKey][]
  const own = provider ? presets.find(([id]) => id === provider.id)?.[1] : undefined
  if (own?.type === 'json-path') return { dedupe: own, sendHeader: HOOKLOOP_ID_HEADER, where: `body field ${own.path}` }
  if (own?.type === 'header') return headerLocation(own.name)
  if (provider && provider.eventIdHeader !== HOOKLOOP_ID_HEADER) return headerLocation(provider.eventIdHeader)
  for (const [, key] of presets) {
    if (key.type === 'header' && requests.some((r) => headerValue(r.headers, key.name) !== undefined)) return headerLocation(key.name)
  }
  const schemeHeader = scheme ? SCHEMES[scheme].idHeader : undefined
  return headerLocation(schemeHeader ?? HOOKLOOP_ID_HEADER)
}

/** The event id a request carries where `at` says; null when it carries none there. */
export function eventIdAt(at: IdLocation, request: IncidentRequest): string | null {
  if (at.dedupe.type === 'header') {
    const value = headerValue(request.headers, at.dedupe.name)?.trim()
    return value ? value : null
  }
  if (at.dedupe.type !== 'json-path') return null
  const body = jsonBody(request.body)
  if (!body.ok) return null
  const value = readJsonPath(body.value, parseJsonPath(at.dedupe.path))
  // A string only: the run's arrivals compare the body's value, and a number is not the id header's text.
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * Where a set-up endpoint's requests carry their event id: its dedupe key; for a template (no one
 * field) or no key, the scheme's id header.
 */
export function locationOfDedupe(dedupe: DedupeKey | null, scheme: SchemeId | null): IdLocation | null {
  const schemeHeader = scheme ? SCHEMES[scheme].idHeader : undefined
  if (dedupe?.type === 'header') return headerLocation(dedupe.name)
  if (dedupe?.type === 'json-path') return { dedupe, sendHeader: schemeHeader ?? HOOKLOOP_ID_HEADER, where: `body field ${dedupe.path}` }
  return schemeHeader ? headerLocation(schemeHeader) : null
}
