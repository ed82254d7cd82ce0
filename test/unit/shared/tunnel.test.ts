import { describe, expect, it } from 'vitest'
import { describeTunnelNotice, describeTunnelState } from '../../../shared/tunnel'

describe('tunnel state labels', () => {
  it('gives one line per state', () => {
    expect(describeTunnelState({ kind: 'stopped' })).toBe('tunnel stopped')
    expect(describeTunnelState({ kind: 'connecting', host: 'https://localtunnel.me' })).toBe('tunnel connecting to https://localtunnel.me')
    expect(describeTunnelState({ kind: 'online', url: 'https://a.loca.lt', sockets: 10 })).toBe('tunnel online at https://a.loca.lt (10 sockets)')
    expect(describeTunnelState({ kind: 'degraded', url: 'https://a.loca.lt', liveSockets: 3, maxSockets: 10 })).toBe('tunnel degraded at https://a.loca.lt: 3 of 10 sockets open')
    expect(describeTunnelState({ kind: 'reconnecting', attempt: 2, nextInMs: 1600, lastError: 'HTTP 502' })).toBe('tunnel reconnecting (attempt 2) in 1.6 s: HTTP 502')
    expect(describeTunnelState({ kind: 'reconnecting', attempt: 1, nextInMs: 800, lastError: 'x' })).toBe('tunnel reconnecting (attempt 1) in 800 ms: x')
    expect(describeTunnelState({ kind: 'offline', reason: 'refused', status: 403 })).toBe('tunnel offline: refused')
  })

  it('says what a URL change means for the user', () => {
    expect(describeTunnelNotice({ kind: 'url-changed', url: 'https://b.loca.lt', requestedSubdomain: 'mine', assignedSubdomain: 'b' })).toBe(
      'subdomain "mine" was not granted (taken?); the public URL is https://b.loca.lt',
    )
    expect(describeTunnelNotice({ kind: 'url-changed', url: 'https://b.loca.lt', previousUrl: 'https://a.loca.lt', assignedSubdomain: 'b' })).toBe(
      'the public URL changed from https://a.loca.lt to https://b.loca.lt: update the URL configured at your provider',
    )
    expect(describeTunnelNotice({ kind: 'local-unreachable', port: 4000, error: 'ECONNREFUSED' })).toBe(
      'a request came through the tunnel but nothing answers on port 4000 (ECONNREFUSED)',
    )
  })
})
