import { describe, expect, it } from 'vitest'
import { createTunnelManager } from '../../../electron/engine/tunnel'
import { DEFAULT_TUNNEL_HOST, resolveTunnelOptions } from '../../../electron/engine/tunnel/options'

describe('tunnel options', () => {
  it('defaults to the public localtunnel service with bounded timings', () => {
    const o = resolveTunnelOptions({ localPort: 4000 })
    expect(DEFAULT_TUNNEL_HOST).toBe('https://localtunnel.me')
    expect(o.host.href).toBe('https://localtunnel.me/')
    expect(o.requestTimeoutMs).toBe(10_000)
    expect(o.healthIntervalMs).toBe(30_000)
    expect(o.backoff).toEqual({ initialMs: 1000, maxMs: 10_000, jitter: 0.2 })
  })

  it('names the bad option', () => {
    expect(() => resolveTunnelOptions({ localPort: 0 })).toThrow('tunnel localPort must be a port number (1–65535), got 0')
    expect(() => resolveTunnelOptions({ localPort: 1, host: 'localtunnel.me' })).toThrow('tunnel host must be a URL like https://localtunnel.me, got "localtunnel.me"')
    expect(() => resolveTunnelOptions({ localPort: 1, host: 'ftp://x' })).toThrow('tunnel host must be an http:// or https:// URL, got "ftp://x"')
    expect(() => resolveTunnelOptions({ localPort: 1, subdomain: 'No_Way' })).toThrow('subdomain "No_Way" is invalid')
    expect(() => resolveTunnelOptions({ localPort: 1, requestTimeoutMs: 0 })).toThrow('tunnel requestTimeoutMs must be ≥ 50 ms, got 0')
    expect(() => resolveTunnelOptions({ localPort: 1, healthIntervalMs: 5 })).toThrow('tunnel healthIntervalMs must be 0 (off) or ≥ 100 ms, got 5')
    expect(() => resolveTunnelOptions({ localPort: 1, backoff: { initialMs: 5 } })).toThrow('backoff.initialMs must be ≥ 10 ms, got 5')
  })

  it('a new manager is stopped, has no public URL and no sockets', () => {
    const manager = createTunnelManager({ localPort: 4000 })
    expect(manager.state).toEqual({ kind: 'stopped' })
    expect(manager.publicUrl()).toBeUndefined()
    expect(manager.sockets()).toEqual({ live: 0, max: 0 })
  })
})
