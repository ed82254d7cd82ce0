import { describe, expect, it } from 'vitest'
import { SCHEME_IDS, SCHEMES } from '../../../../shared/signatures'
import { buildProbe, signsTimestamp, staleBySeconds, type BatteryInput } from '../../../../electron/engine/conformance/consumer/battery'
import { freshPrivateKey, isAsymmetricFormat, verify } from '../../../../electron/engine/signatures'

// Each request of the battery is what it claims to be, judged by Hookloop's own verify().

const SW = `whsec_${Buffer.from('hookloop consumer check secret!!').toString('base64')}`
const NOW = Date.UTC(2026, 10, 29, 12)

function battery(overrides: Partial<BatteryInput> = {}): BatteryInput {
  return { url: 'https://consumer.example/webhooks', scheme: 'standard-webhooks', secret: SW, eventType: 'order.paid', ...overrides }
}

function check(input: BatteryInput, kind: Parameters<typeof buildProbe>[0]) {
  const probe = buildProbe(kind, input, NOW)
  const result = verify(input.scheme, { body: probe.body, headers: probe.headers, secrets: [input.secret], url: input.url, now: NOW / 1000, ...(input.custom ? { custom: input.custom } : {}) })
  return { probe, result }
}

describe('consumer check battery', () => {
  it('valid: verifies, JSON with the event id and type, the id in the scheme id header', () => {
    const { probe, result } = check(battery(), 'valid')
    expect(result.reason).toBe('ok')
    const body = JSON.parse(probe.body.toString('utf8')) as { id: string; type: string }
    expect(body.id).toBe(probe.eventId)
    expect(body.type).toBe('order.paid')
    expect(probe.eventId).toMatch(/^msg_[0-9A-Za-z]{27}$/)
    expect(probe.headers['webhook-id']).toBe(probe.eventId)
    expect(probe.headers['content-type']).toBe('application/json')
  })

  it('wrong, missing and stale signatures fail verification for the right reason', () => {
    expect(check(battery(), 'wrong_signature').result.reason).toBe('signature_mismatch')
    const missing = check(battery(), 'missing_signature')
    expect(missing.probe.headers['webhook-signature']).toBeUndefined()
    expect(missing.probe.headers['webhook-timestamp']).toBeDefined()
    expect(missing.result.reason).toBe('missing_header')
    expect(check(battery(), 'stale_timestamp').result.reason).toBe('timestamp_too_old')
    expect(check(battery({ scheme: 'stripe', secret: 'whsec_s' }), 'stale_timestamp').result.reason).toBe('timestamp_too_old')
    const github = check(battery({ scheme: 'github', secret: 'k' }), 'missing_signature').probe.headers
    expect(Object.keys(github).filter((h) => h.startsWith('x-hub-signature'))).toEqual([])
  })

  it('malformed body: correctly signed, not JSON', () => {
    const { probe, result } = check(battery(), 'malformed_body')
    expect(result.reason).toBe('ok')
    expect(() => JSON.parse(probe.body.toString('utf8'))).toThrow()
  })

  it('duplicate: the same id and bytes, signed again', () => {
    const first = buildProbe('valid', battery(), NOW)
    const again = buildProbe('duplicate', battery(), NOW + 1000, { eventId: first.eventId, body: first.body })
    expect(again.eventId).toBe(first.eventId)
    expect(again.body.equals(first.body)).toBe(true)
    expect(again.headers['webhook-timestamp']).toBe(String(NOW / 1000 + 1))
  })

  it('a payload document: id replaced per request, sent as JSON; without an id left as is', () => {
    const probe = buildProbe('valid', battery({ payload: { id: 'x', amount: 5 } }), NOW)
    expect(JSON.parse(probe.body.toString('utf8'))).toEqual({ id: probe.eventId, amount: 5 })
    expect(JSON.parse(buildProbe('valid', battery({ payload: [1, 2] }), NOW).body.toString('utf8'))).toEqual([1, 2])
  })

  it('every scheme builds a valid probe that verifies (URL-signing schemes included)', () => {
    for (const scheme of SCHEME_IDS) {
      const custom = scheme === 'custom' ? { header: 'x-sig', algorithm: 'sha256' as const, encoding: 'hex' as const, signedTemplate: '{timestamp}.{body}', timestampHeader: 'x-ts', toleranceSeconds: 300 } : undefined
      const format = SCHEMES[scheme].secretFormat
      const secret = format === 'whsec-base64' ? SW : isAsymmetricFormat(format) ? freshPrivateKey(format) : 'plain-secret'
      const input = battery({ scheme, secret, ...(custom ? { custom } : {}) })
      expect(check(input, 'valid').result.reason, scheme).toBe('ok')
      expect(check(input, 'wrong_signature').result.valid, scheme).toBe(false)
      expect(check(input, 'missing_signature').result.valid, scheme).toBe(false)
      if (signsTimestamp(scheme, custom)) expect(check(input, 'stale_timestamp').result.reason, scheme).toBe('timestamp_too_old')
    }
    expect(signsTimestamp('github')).toBe(false)
    expect(signsTimestamp('custom', { header: 'x', algorithm: 'sha256', encoding: 'hex' })).toBe(false)
    expect(staleBySeconds('paddle')).toBe(3600)
  })
})
