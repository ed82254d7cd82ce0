import { describe, expect, it } from 'vitest'
import { healthRequestMarker, healthResponse, matchMarker } from '../../../electron/engine/tunnel/health'

const marker = healthRequestMarker('s3cret')

describe('health request marker', () => {
  it('is the request line start of GET <health path>/<secret>', () => {
    expect(marker.toString('latin1')).toBe('GET /__hookloop_tunnel_health/s3cret ')
  })

  it('decides only when enough bytes are in', () => {
    expect(matchMarker(Buffer.from('GET /__hook'), marker)).toBe('partial')
    expect(matchMarker(Buffer.from('GET /__hookloop_tunnel_health/s3cret HTTP/1.1\r\n'), marker)).toBe('match')
    expect(matchMarker(Buffer.from('POST /hooks'), marker)).toBe('mismatch')
    expect(matchMarker(Buffer.from('G'), marker)).toBe('partial')
  })

  it('does not match another secret, a longer one, or the path in a body', () => {
    expect(matchMarker(Buffer.from('GET /__hookloop_tunnel_health/guess HTTP/1.1\r\n'), marker)).toBe('mismatch')
    expect(matchMarker(Buffer.from('GET /__hookloop_tunnel_health/s3cretX HTTP/1.1\r\n'), marker)).toBe('mismatch')
    expect(matchMarker(Buffer.from('{"x":"GET /__hookloop_tunnel_health/s3cret "}'), marker)).toBe('mismatch')
  })

  it('answers with a keep-alive 204 that echoes the secret', () => {
    expect(healthResponse('s3cret')).toBe('HTTP/1.1 204 No Content\r\nx-hookloop-tunnel: s3cret\r\n\r\n')
  })
})
