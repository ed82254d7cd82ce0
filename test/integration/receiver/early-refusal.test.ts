// An early refusal (413 over the endpoint's limit, 503 past the memory budget, decided from the head
// before the body is read) is an answer the client reads, not a reset: the receiver sends it with
// `Connection: close`, then keeps reading and discarding what the client still sends (within a bound
// of bytes and time) until the client has the status and closes. Raw sockets that write their whole
// body at once, as the hostile benchmark's clients do; each must read the status, none an ECONNRESET.
import net from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness, parseResponses } from './support'

let h: Harness
beforeEach(async () => {
  h = await startHarness({ bodyBudgetBytes: 1_000_000 })
  await h.receiver.endpoints.create({ slug: 'small', body_limit: 1024 })
  await h.receiver.endpoints.create({ slug: 'big' })
})
afterEach(async () => {
  await h.stop()
})

interface ClientSaw {
  status: number | null
  connection: string | undefined
  error: string | null
}

/**
 * As most HTTP clients do: writes the head and the whole body, and reads the answer only once the
 * body is written; then reads until the server ends the connection.
 */
function postWholeBody(port: number, path: string, size: number): Promise<ClientSaw> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let error: string | null = null
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message))
    socket.on('close', () => {
      const response = parseResponses(Buffer.concat(chunks))[0]
      resolve({ status: response?.status ?? null, connection: response?.headers.connection, error })
    })
    socket.pause()
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`)
      socket.write(Buffer.alloc(size, 'a'), () => socket.resume())
    })
  })
}

/** The receiver's count of refusals once `n` of them have ended (the client may see its close first). */
async function refusalsOnceEnded(n: number): Promise<{ read: number; cut: number }> {
  // Bounded (it only ends a failing test), well past the linger's own 2 s idle bound.
  for (let i = 0; i < 3000; i++) {
    const counted = h.receiver.refusals()
    if (counted.read + counted.cut >= n) return counted
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return h.receiver.refusals()
}

describe('early refusals reach raw clients as answers', () => {
  it('413 over the endpoint limit: every client reads the status, with Connection: close', async () => {
    const saw = await Promise.all(Array.from({ length: 12 }, () => postWholeBody(h.receiver.port, '/h/small', 4 * 1024 * 1024)))
    expect(saw.map((s) => s.status)).toEqual(saw.map(() => 413))
    expect(saw.map((s) => s.connection)).toEqual(saw.map(() => 'close'))
    expect(saw.filter((s) => s.error !== null)).toEqual([])
    expect(await refusalsOnceEnded(12)).toEqual({ read: 12, cut: 0 })
  })

  it('503 past the memory budget: the clients refused read the status too', async () => {
    const saw = await Promise.all(Array.from({ length: 12 }, () => postWholeBody(h.receiver.port, '/h/big', 4 * 1024 * 1024)))
    const statuses = saw.map((s) => s.status)
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0)
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    expect(saw.filter((s) => s.error !== null)).toEqual([])
    const refused = statuses.filter((s) => s === 503).length
    expect(await refusalsOnceEnded(refused)).toEqual({ read: refused, cut: 0 })
  })

  it('a client that stops sending (and never closes) still gets the status, and the linger ends at its bound', async () => {
    // allowHalfOpen: our side stays open after the receiver's FIN, as a stuck client's would.
    const socket = net.connect({ port: h.receiver.port, host: '127.0.0.1', allowHalfOpen: true })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    const answered = new Promise<void>((resolve) => socket.once('end', () => resolve()))
    socket.on('error', () => undefined)
    socket.write(`POST /h/small HTTP/1.1\r\nHost: x\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n` + 'a'.repeat(100))
    // The answer, then the receiver's FIN; the client neither sends more nor closes.
    await answered
    expect(parseResponses(Buffer.concat(chunks))[0]?.status).toBe(413)
    // The idle bound (2 s without a byte) ends the linger: the receiver closes, counted as cut.
    expect(await refusalsOnceEnded(1)).toEqual({ read: 0, cut: 1 })
    socket.destroy()
  })
})
