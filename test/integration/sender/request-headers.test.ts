import { describe, expect } from 'vitest'
import type { SchemeId } from '../../../shared/signatures'
import { buildHeaders } from '../../../electron/engine/sender/request-headers'
import { sign, verify } from '../../../electron/engine/signatures'
import { propertyPerScheme } from '../../support/scheme-properties'

// The signing faults against the real signatures module, for every scheme with a plain secret
// format: a corrupted signature must never verify, whatever the bytes (a changed base64 padding
// bit would).

const NOW = 1_700_000_000_000
const SECRETS: Partial<Record<SchemeId, string>> = {
  'standard-webhooks': 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  svix: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  stripe: 'whsec_test_secret',
  github: 'It\u2019s a Secret to Everybody',
  shopify: 'shopify-secret',
  slack: 'slack-secret',
}

describe('signing faults', () => {
  propertyPerScheme(SECRETS, (scheme) => `${scheme}: signed headers verify; corrupt-signature never does`, { maxLength: 200, numRuns: 150 }, (scheme, secret, bytes, eventId) => {
    const body = Buffer.from(bytes)
    const input = { scheme, secret, retiredSecret: undefined, eventId, eventIdHeader: 'x-id', extraHeaders: {}, body, url: 'http://127.0.0.1/hook', now: NOW, sign }
    const check = (headers: Record<string, string>) => verify(scheme, { body, headers, secrets: [secret], now: NOW / 1000 })
    expect(check(buildHeaders({ ...input, faults: [] }).headers).valid).toBe(true)
    const corrupted = buildHeaders({ ...input, faults: [{ type: 'corrupt-signature' }] })
    expect(check(corrupted.headers)).toMatchObject({ valid: false })
    expect(corrupted.applied.map((f) => f.type)).toEqual(['corrupt-signature'])
  })
})
