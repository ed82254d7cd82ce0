import { describe, expect, it } from 'vitest'
import { assignmentUrl, MAX_SOCKETS_CAP, parseAssignment, subdomainProblem, TunnelRequestError } from '../../../electron/engine/tunnel/assignment'

const server = new URL('https://localtunnel.me')

describe('parseAssignment', () => {
  it('reads a localtunnel answer; sockets go to the server host, not to an `ip` it names', () => {
    expect(parseAssignment({ id: 'abcd', port: 41234, max_conn_count: 10, url: 'https://abcd.loca.lt/', ip: '10.0.0.9' }, server)).toEqual({
      id: 'abcd',
      url: 'https://abcd.loca.lt',
      remoteHost: 'localtunnel.me',
      remotePort: 41234,
      maxSockets: 10,
    })
  })

  it('defaults to one socket and caps what a server may ask for', () => {
    expect(parseAssignment({ id: 'abcd', port: 1, url: 'http://a.b' }, server).maxSockets).toBe(1)
    expect(parseAssignment({ id: 'abcd', port: 1, url: 'http://a.b', max_conn_count: 5000 }, server).maxSockets).toBe(MAX_SOCKETS_CAP)
  })

  it('strips the brackets of an IPv6 server host', () => {
    expect(parseAssignment({ id: 'abcd', port: 2, url: 'http://a.b' }, new URL('http://[::1]:3000')).remoteHost).toBe('::1')
  })

  it('rejects answers that are not assignments, naming the field, as retryable', () => {
    const bad = [
      [{ id: 'abcd', port: 0, url: 'http://a.b' }, 'port'],
      [{ id: 'abcd', port: 70000, url: 'http://a.b' }, 'port'],
      [{ port: 1, url: 'http://a.b' }, 'id'],
      [{ id: 'abcd', port: 1, url: 'not a url' }, 'url'],
      ['<html>', 'body'],
    ] as const
    for (const [body, field] of bad) {
      let error: unknown
      try {
        parseAssignment(body, server)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(TunnelRequestError)
      expect((error as TunnelRequestError).message).toContain(field)
      expect((error as TunnelRequestError).retryable).toBe(true)
    }
    expect(() => parseAssignment({ id: 'abcd', port: 1, url: 'ftp://a.b' }, server)).toThrow('non-HTTP public URL')
  })
})

describe('assignmentUrl', () => {
  it('asks /?new or /<subdomain> under the server URL', () => {
    expect(assignmentUrl(server, undefined).href).toBe('https://localtunnel.me/?new')
    expect(assignmentUrl(server, 'my-hooks').href).toBe('https://localtunnel.me/my-hooks')
    expect(assignmentUrl(new URL('http://127.0.0.1:3000/lt'), 'abcd').href).toBe('http://127.0.0.1:3000/lt/abcd')
  })
})

describe('subdomainProblem', () => {
  it('accepts lowercase letters, digits and inner hyphens, 4 to 63 long', () => {
    for (const ok of ['abcd', 'my-hooks', 'a1b2', 'x'.repeat(63)]) expect(subdomainProblem(ok)).toBeUndefined()
  })
  it('explains what is wrong with anything else', () => {
    for (const bad of ['abc', 'ABCD', '-abcd', 'abcd-', 'a_bc', 'x'.repeat(64), 'ab.cd', '']) {
      expect(subdomainProblem(bad)).toBe(`subdomain "${bad}" is invalid: use 4 to 63 lowercase letters, digits or inner hyphens`)
    }
  })
})
