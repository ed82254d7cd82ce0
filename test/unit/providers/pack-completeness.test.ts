import { describe, expect, it } from 'vitest'
import { catalogPayload, providerBody, providerHeaders } from '../../../electron/engine/providers'
import { EVENT_CATALOG, parseOverride } from '../../../shared/event-catalog'
import { isPolicyPresetId } from '../../../shared/sender'
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { freshSecret, secretFormatOf } from '../../../shared/secrets'
import { isSchemeId, SCHEMES } from '../../../shared/signatures'

// A new provider is its pack file, its catalog file and a line in each index: everything the
// engine, the CLI, scenarios and the app read about a provider comes from the pack (its body and
// where the payload sits in it, the body in words, headers) or from the scheme it names (its
// secret's form). This checks every pack declares all of it, so that nothing else needs editing.

/** The value at a dotted path of a body (the path an override names). */
function at(body: unknown, path: string): unknown {
  return path === '' ? body : path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), body)
}

function sentBody(provider: ProviderId, eventType: string, overrides: string[]): unknown {
  const pack = PROVIDERS[provider]
  const payload = catalogPayload({ provider, eventType, now: Date.UTC(2026, 11, 2), overrides: overrides.map(parseOverride) })
  const body = providerBody(pack, { eventId: 'e1', eventType, payload: Buffer.from(JSON.stringify(payload)), createdAt: 0, sentAt: 0 }).toString('utf8')
  // A form body (Twilio) is flat parameters: the payload is the whole body.
  return pack.contentType.startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(body)) : (JSON.parse(body) as unknown)
}

describe('every provider is its pack and its catalog', () => {
  it('the indexes agree: every provider has a pack under its own id and a catalog, and the catalog names no other provider', () => {
    expect(Object.keys(PROVIDERS)).toEqual(PROVIDER_IDS)
    expect(Object.keys(EVENT_CATALOG).sort()).toEqual([...PROVIDER_IDS].sort())
    for (const id of PROVIDER_IDS) expect(PROVIDERS[id].id).toBe(id)
  })

  it.each(PROVIDER_IDS)('%s declares its scheme, policy, secret form, body words and id header', (id) => {
    const pack = PROVIDERS[id]
    expect(isSchemeId(pack.scheme)).toBe(true)
    expect(SCHEMES[pack.scheme].id).toBe(pack.scheme)
    expect(isPolicyPresetId(pack.policy)).toBe(true)
    expect(['whsec', 'hex', 'ecdsa-p256', 'ed25519']).toContain(secretFormatOf(pack.scheme))
    expect(freshSecret(pack.scheme).length).toBeGreaterThan(20)
    expect(pack.envelope.kind).not.toBe('')
    expect(pack.envelope.words.length).toBeGreaterThan(5)
    expect(pack.eventIdHeader).toBe(pack.eventIdHeader.toLowerCase())
    expect(pack.contentType).not.toBe('')
  })

  it.each(PROVIDER_IDS)('%s: an override at the pack\u2019s payload path lands there in the body it sends, for every catalog event', (id) => {
    const { payloadPath } = PROVIDERS[id].envelope
    const probe = payloadPath === '' ? 'hookloop_probe' : `${payloadPath}.hookloop_probe`
    for (const event of EVENT_CATALOG[id]) {
      const body = sentBody(id, event.type, [`${probe}=probe-${event.type}`])
      expect(at(body, probe), `${id} ${event.type}`).toBe(`probe-${event.type}`)
      const headers = providerHeaders(PROVIDERS[id], { eventId: 'e1', eventType: event.type, attempt: 1, createdAt: 0, sentAt: 0 })
      expect(headers['content-type']).toBe(PROVIDERS[id].contentType)
    }
  })
})
