import { describe, expect, it } from 'vitest'
import { createFramer, framingAvailable, type MessageHead } from '../../../electron/engine/tunnel/framing'

function track(kind: 'request' | 'response', skipBodyFor: (head: MessageHead) => boolean = () => false) {
  const events: string[] = []
  const framer = createFramer(kind, {
    onBegin: () => events.push('begin'),
    onHead: (head) => {
      events.push(`head ${head.method ?? head.status ?? '?'}${head.keepAlive ? '' : ' close'}${head.upgrade ? ' upgrade' : ''}`)
      return skipBodyFor(head)
    },
    onComplete: () => events.push('complete'),
  })
  if (!framer) throw new Error('no framer on this Node')
  return { framer, events }
}

describe('HTTP message boundaries on a tunnel socket', () => {
  it('is available on this Node', () => {
    expect(framingAvailable).toBe(true)
  })

  it('finds the end of a request whose body comes in pieces', () => {
    const { framer, events } = track('request')
    expect(framer.parse(Buffer.from('POST /h/x HTTP/1.1\r\nHost: a.lt.test\r\nContent-Length: 7\r\n\r\n{"a"'))).toBe(true)
    expect(events).toEqual(['begin', 'head POST'])
    expect(framer.parse(Buffer.from(':1'))).toBe(true)
    expect(events).toEqual(['begin', 'head POST'])
    framer.parse(Buffer.from('}'))
    expect(events).toEqual(['begin', 'head POST', 'complete'])
  })

  it('sees Connection: close and upgrades on requests', () => {
    const { framer, events } = track('request')
    framer.parse(Buffer.from('GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    expect(events).toEqual(['begin', 'head GET close', 'complete'])
    const ws = track('request')
    ws.framer.parse(Buffer.from('GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'))
    expect(ws.events.slice(0, 2)).toEqual(['begin', 'head GET upgrade'])
  })

  it('counts an interim 100 Continue and a chunked answer as separate messages', () => {
    const { framer, events } = track('response')
    framer.parse(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n'))
    expect(events).toEqual(['begin', 'head 100', 'complete', 'begin', 'head 200'])
    framer.parse(Buffer.from('0\r\n\r\n'))
    expect(events.at(-1)).toBe('complete')
  })

  it('ends the answer to a HEAD request at its head, whatever Content-Length says', () => {
    const { framer, events } = track('response', () => true)
    framer.parse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n'))
    expect(events).toEqual(['begin', 'head 200', 'complete'])
  })

  it('completes a body delimited by the close when the peer ends', () => {
    const { framer, events } = track('response')
    framer.parse(Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\npartial body'))
    expect(events).toEqual(['begin', 'head 200 close'])
    framer.end()
    expect(events.at(-1)).toBe('complete')
  })

  it('gives up on bytes that are not HTTP (a malformed answer the receiver sends on purpose)', () => {
    const { framer } = track('response')
    expect(framer.parse(Buffer.from('garbage that is no status line\r\n\r\n'))).toBe(false)
    expect(framer.parse(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))).toBe(false)
  })
})
