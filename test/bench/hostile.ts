// npm run bench:hostile — what a stranger with the public URL can do to the receiver's memory and
// event loop. Every large body is as large as the receiver's default body limit allows (the server
// says its limit; BENCH_BODY_MB sets another size). Scenario A: eight parallel JSON bombs (nested
// arrays before the dedupe field), then 30 unique dedupe keys of that size, eight at a time.
// Scenario B: 50 parallel bodies of that size. All the while an unrelated small request is sent
// again and again; its longest wait is the figure. Reports peak RSS, heap after a full GC (before
// and after), database growth, rows and refusals. The server runs in its own process
// (hostile-server-process); this one is the attacker + probe. With BENCH_BEFORE_SERVER (set by
// `--before <ref>`, hostile-run.mjs) each scenario runs against that receiver too, alternating.
import { fork, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const MB = 1024 * 1024
/** Servers that do not say their limit were built before it was raised: 10 MiB. */
const OLD_DEFAULT_LIMIT = 10 * MB
const BODY_OVERRIDE = process.env.BENCH_BODY_MB ? Number(process.env.BENCH_BODY_MB) * MB : null

interface ServerReply {
  port?: number
  bodyLimit?: number
  heapAfterGc?: number
  rss?: number
  dbBytes?: number
  peakRss?: number
  rows?: number
  digestKeys?: number
  refused?: number
  notInspected?: number
  answered503?: number
  refusalsRead?: number
  refusalsCut?: number
  loopDelayMaxMs?: number
}

function ask(server: ChildProcess, op: string): Promise<ServerReply> {
  return new Promise((resolve) => {
    server.once('message', (message) => resolve(message as ServerReply))
    server.send({ op })
  })
}

/** Sends one request on a fresh socket and resolves with the status (0 = no answer). */
function request(port: number, head: string, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    let done = false
    const finish = () => {
      if (done) return
      done = true
      socket.destroy()
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data)
      resolve(match ? Number(match[1]) : 0)
    }
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1')
      if (data.includes('\r\n\r\n')) finish()
    })
    socket.on('error', finish)
    socket.on('close', finish)
    socket.on('connect', () => {
      socket.write(head)
      socket.write(body)
    })
  })
}

const post = (path: string, body: Buffer) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`

function bomb(i: number, size: number): Buffer {
  const prefix = Buffer.from('{"x":')
  const suffix = Buffer.from(`,"event_id":"bomb-${i}","type":"order.paid"}`)
  const depth = (size - prefix.length - suffix.length) >> 1
  return Buffer.concat([prefix, Buffer.alloc(depth, '['), Buffer.alloc(depth, ']'), suffix])
}

function uniqueKey(i: number, size: number): Buffer {
  const prefix = Buffer.from(`{"event_id":"key-${i}-`)
  const suffix = Buffer.from('"}')
  return Buffer.concat([prefix, Buffer.alloc(size - prefix.length - suffix.length, 'k'), suffix])
}

/** The unrelated request, sent back to back (one at a time) until stopped: its longest wait. */
function probe(port: number): { stop: () => Promise<{ max: number; p99: number; count: number }> } {
  const waits: number[] = []
  let running = true
  const loop = (async () => {
    const body = Buffer.from('{"ping":true}')
    while (running) {
      const started = performance.now()
      await request(port, post('/h/ping', body), body)
      waits.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      const sorted = [...waits].sort((a, b) => a - b)
      return { max: sorted[sorted.length - 1] ?? 0, p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, count: sorted.length }
    },
  }
}

async function inParallel<T>(items: T[], width: number, run: (item: T) => Promise<number>): Promise<number[]> {
  const statuses: number[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++] as T
        statuses.push(await run(item))
      }
    }),
  )
  return statuses
}

interface Receiver {
  label: string
  file: string
}

async function scenario(receiver: Receiver, name: string, attack: (port: number, size: number) => Promise<number[]>) {
  const server = fork(receiver.file, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const ready = await new Promise<ServerReply>((resolve) => server.once('message', (m) => resolve(m as ServerReply)))
  const port = ready.port as number
  const size = BODY_OVERRIDE ?? ready.bodyLimit ?? OLD_DEFAULT_LIMIT
  await request(port, post('/h/ping', Buffer.from('{}')), Buffer.from('{}')) // warm
  const before = await ask(server, 'gc')
  const started = performance.now()
  const probing = probe(port)
  const statuses = await attack(port, size)
  const waits = await probing.stop()
  const seconds = (performance.now() - started) / 1000
  const after = await ask(server, 'gc')
  const end = await ask(server, 'stop')
  const count = (s: number) => statuses.filter((x) => x === s).length
  return {
    name,
    receiver: receiver.label,
    bodyMiB: Math.round((size / MB) * 10) / 10,
    seconds: Math.round(seconds * 10) / 10,
    answered: { ok2xx: statuses.filter((s) => s >= 200 && s < 300).length, s413: count(413), s503: count(503), other: statuses.filter((s) => s < 200 || (s >= 300 && s !== 503 && s !== 413)).length },
    peakRssMiB: Math.round((end.peakRss ?? 0) / MB),
    heapAfterGcMiB: { before: Math.round((before.heapAfterGc ?? 0) / MB), after: Math.round((after.heapAfterGc ?? 0) / MB) },
    dbGrowthMiB: Math.round(((after.dbBytes ?? 0) - (before.dbBytes ?? 0)) / MB),
    loopHeldMaxMs: Math.round(after.loopDelayMaxMs ?? 0),
    unrelatedWaitMs: { max: Math.round(waits.max), p99: Math.round(waits.p99), samples: waits.count },
    rows: end.rows ?? 0,
    digestKeys: end.digestKeys ?? 0,
    notInspected: end.notInspected ?? 0,
    refused503Rows: end.answered503 ?? 0,
    // What the receiver saw of its refusals' connections: the client had the answer, or a bound cut it.
    refusals: end.refusalsRead === undefined ? null : { read: end.refusalsRead, cut: end.refusalsCut ?? 0 },
  }
}

const attackA = async (port: number, size: number) => {
  const bombs = await Promise.all(Array.from({ length: 8 }, (_, i) => bomb(i, size)).map((b) => request(port, post('/h/hostile', b), b)))
  const keys = await inParallel(Array.from({ length: 30 }, (_, i) => i), 8, (i) => {
    const body = uniqueKey(i, size)
    return request(port, post('/h/hostile', body), body)
  })
  return [...bombs, ...keys]
}
const attackB = async (port: number, size: number) => {
  const body = Buffer.alloc(size, 'b')
  return Promise.all(Array.from({ length: 50 }, () => request(port, post('/h/ping', body), body)))
}

const after: Receiver = { label: 'after', file: join(here, 'hostile-server-process.mjs') }
const receivers: Receiver[] = process.env.BENCH_BEFORE_SERVER ? [{ label: `before (${process.env.BENCH_BEFORE_REF ?? 'ref'})`, file: process.env.BENCH_BEFORE_SERVER }, after] : [after]
const results = []
for (const [name, attack] of [
  ['A: 8 JSON bombs ∥ + 30 unique keys (8 ∥)', attackA],
  ['B: 50 parallel bodies', attackB],
] as const) {
  for (const receiver of receivers) results.push(await scenario(receiver, name, attack))
}

console.log(`Hostile benchmark: ${process.version}; the machine is shared (figures are indicative)\n`)
console.log('| scenario | receiver | body MiB | s | 2xx / 413 / 503 / other | peak RSS MiB | heap after GC MiB (before → after) | DB growth MiB | unrelated request: max / p99 ms | event loop held max ms | rows | digest keys | not inspected |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.receiver} | ${r.bodyMiB} | ${r.seconds} | ${r.answered.ok2xx} / ${r.answered.s413} / ${r.answered.s503} / ${r.answered.other} | ${r.peakRssMiB} | ${r.heapAfterGcMiB.before} → ${r.heapAfterGcMiB.after} | ${r.dbGrowthMiB} | ${r.unrelatedWaitMs.max} / ${r.unrelatedWaitMs.p99} (${r.unrelatedWaitMs.samples}) | ${r.loopHeldMaxMs} | ${r.rows} | ${r.digestKeys} | ${r.notInspected} |`,
  )
}
console.log(JSON.stringify({ bench: 'hostile', scenarios: results }))
