import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { catalogPayload, packSubscription } from '../../../electron/engine/providers'
import type { AttemptView, SendFaultInput } from '../../../shared/sender'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'
import type { JudgeConsumer } from './judges/types'
import { attemptsFinished, startSender, type SenderRig } from '../sender/support'

// A Hookloop delivery as a provider makes it (its pack, a catalog event, the sender on a virtual
// clock) to a real HTTP server on 127.0.0.1 that runs the provider's official library the way its
// docs say. Only the first attempt is made (the policy's max_attempts is set to 1) so a rejected
// delivery does not go on retrying.

export interface Consumer {
  url: string
  close(): Promise<void>
}

/** An HTTP server on 127.0.0.1 around a request handler (or a library's node middleware). */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>, path = '/hooks'): Promise<Consumer> {
  const server: Server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** What a judge's library made of one delivery it accepted. */
export interface Reading {
  /** The event type (or types, for a batch) the library parsed. */
  accepted: string | string[]
  /** The delivery id the library reports, where it reports one. */
  deliveryId?: string
  /** What the consumer answers, where the provider expects more than an empty 200. */
  answer?: { headers: Record<string, string>; body: string }
}

class Refusal extends Error {
  constructor(readonly status: number, reason: string) {
    super(reason)
  }
}

/** Refuses the delivery with this status (a consumer that throws anything else answers 400 with the error). */
export function refuse(status: number, reason = ''): never {
  throw new Refusal(status, reason)
}

/**
 * Whether a signature or token that arrived equals the one the consumer computed from the
 * provider's docs, compared in constant time as those docs ask (a missing header matches nothing).
 */
export function matches(received: string | string[] | undefined, expected: string): boolean {
  const a = Buffer.from(typeof received === 'string' ? received : '')
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * A judge's consumer: `read` runs the provider's library on the raw body, as its docs show, and
 * says what it accepted (or throws, or refuses): 200 and the reading kept, or the refusal's
 * status. `deliveryIds` is kept only for a library that reports one.
 */
export async function judgeConsumer(read: (body: Buffer, req: IncomingMessage, res: ServerResponse) => Reading | Promise<Reading>, options: { deliveryIds?: true } = {}): Promise<JudgeConsumer> {
  const accepted: string[] = []
  const deliveryIds: string[] = []
  const consumer = await serve(async (req, res) => {
    let reading: Reading
    try {
      reading = await read(await rawBody(req), req, res)
    } catch (error) {
      return void res.writeHead(error instanceof Refusal ? error.status : 400).end(error instanceof Refusal ? error.message : String(error))
    }
    if (reading.deliveryId !== undefined) deliveryIds.push(reading.deliveryId)
    accepted.push(...[reading.accepted].flat())
    res.writeHead(200, reading.answer?.headers).end(reading.answer?.body)
  })
  return { ...consumer, accepted, ...(options.deliveryIds ? { deliveryIds } : {}) }
}

/** Consumers a describe block opens as its tests go (`url` serves a handler and gives its URL); close() ends them. */
export function consumerPool() {
  const open: Consumer[] = []
  return {
    url: async (handler: Parameters<typeof serve>[0]): Promise<string> => {
      const consumer = await serve(handler)
      open.push(consumer)
      return consumer.url
    },
    close: () => closeAll(...open.splice(0)),
  }
}

/** Closes, in order, what a describe block opened (senders, consumers). */
export async function closeAll(...open: { close(): Promise<void> }[]): Promise<void> {
  for (const item of open) await item.close()
}

export function rawBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export interface Delivered {
  attempt: AttemptView
}

export interface DeliverOptions {
  /** Absent: the pack's default (a provider that does not sign gets no secret). */
  secret?: string
  eventType: string
  faults?: SendFaultInput[]
  overrides?: Parameters<typeof catalogPayload>[0]['overrides']
}

/** One delivery per call, each on a fresh sender; close() ends them all. */
export function providerSender(provider: ProviderId) {
  const rigs: SenderRig[] = []
  return {
    async deliver(url: string, options: DeliverOptions): Promise<AttemptView> {
      const rig = await startSender()
      rigs.push(rig)
      await rig.sender.createSubscription(packSubscription(provider, { id: 'sub', target: { url }, ...(options.secret === undefined ? {} : { secrets: [options.secret] }), policy: { preset: PROVIDERS[provider].policy, max_attempts: 1 } }))
      const finished = attemptsFinished(rig.sender, 1)
      await rig.sender.publish({
        eventType: options.eventType,
        payload: catalogPayload({ provider, eventType: options.eventType, now: rig.clock.now(), ...(options.overrides ? { overrides: options.overrides } : {}) }),
        ...(options.faults ? { faults: options.faults } : {}),
      })
      const [attempt] = await finished
      return attempt!
    },
    async close() {
      for (const rig of rigs.splice(0)) await rig.close()
    },
  }
}

export const WRONG_SECRET: SendFaultInput[] = [{ type: 'wrong-secret' }]
export const CORRUPT: SendFaultInput[] = [{ type: 'corrupt-signature' }]
export const STALE: SendFaultInput[] = [{ type: 'stale-timestamp', by_s: 600 }]
