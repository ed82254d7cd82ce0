// npm run bench:hostile — what a stranger with the public URL can do to the receiver's memory and
// event loop. Scenario A: eight parallel 10 MB JSON bombs (nested arrays before the dedupe field),
// then 30 unique 10 MB dedupe keys, eight at a time. Scenario B: 50 parallel 10 MB bodies. All the
// while an unrelated small request is sent again and again; its longest wait is the figure.
// Reports peak RSS, heap after a full GC (before and after), database growth, rows and refusals.
// The server runs in its own process (hostile-server-process); this one is the attacker + probe.
import { fork, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const MB = 1024 * 1024
const BODY = 10 * MB

interface ServerReply {
  port?: number
  heapAfterGc?: number
  rss?: number
  dbBytes?: number
  peakRss?: number
  rows?: number
  digestKeys?: number
  refused?: number
  notInspected?: number
  answered503?: number
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

function bomb(i: number): Buffer {
  const prefix = Buffer.from('{"x":')
  const suffix = Buffer.from(`,"event_id":"bomb-${i}","type":"order.paid"}`)
  const depth = (BODY - prefix.length - suffix.length) >> 1
  return Buffer.concat([prefix, Buffer.alloc(depth, '['), Buffer.alloc(depth, ']'), suffix])
}

function uniqueKey(i: number): Buffer {
  const prefix = Buffer.from(`{"event_id":"key-${i}-`)
  const suffix = Buffer.from('"}')
  return Buffer.concat([prefix, Buffer.alloc(BODY - prefix.length - suffix.length, 'k'), suffix])
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

async function scenario(name: string, attack: (port: number) => Promise<number[]>) {
  const server = fork(join(here, 'hostile-server-process.mjs'), [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const ready = await new Promise<ServerReply>((resolve) => server.once('message', (m) => resolve(m as ServerReply)))
  const port = ready.port as number
  await request(port, post('/h/ping', Buffer.from('{}')), Buffer.from('{}')) // warm
  const before = await ask(server, 'gc')
  const started = performance.now()
  const probing = probe(port)
  const statuses = await attack(port)
  const waits = await probing.stop()
  const seconds = (performance.now() - started) / 1000
  const after = await ask(server, 'gc')
  const end = await ask(server, 'stop')
  const count = (s: number) => statuses.filter((x) => x === s).length
  return {
    name,
    seconds: Math.round(seconds * 10) / 10,
    answered: { ok2xx: statuses.filter((s) => s >= 200 && s < 300).length, s503: count(503), other: statuses.filter((s) => s < 200 || (s >= 300 && s !== 503)).length },
    peakRssMiB: Math.round((end.peakRss ?? 0) / MB),
    heapAfterGcMiB: { before: Math.round((before.heapAfterGc ?? 0) / MB), after: Math.round((after.heapAfterGc ?? 0) / MB) },
    dbGrowthMiB: Math.round(((after.dbBytes ?? 0) - (before.dbBytes ?? 0)) / MB),
    loopHeldMaxMs: Math.round(after.loopDelayMaxMs ?? 0),
    unrelatedWaitMs: { max: Math.round(waits.max), p99: Math.round(waits.p99), samples: waits.count },
    rows: end.rows ?? 0,
    digestKeys: end.digestKeys ?? 0,
    notInspected: end.notInspected ?? 0,
    refused503Rows: end.answered503 ?? 0,
  }
}

const a = await scenario('8 JSON bombs ∥ + 30 unique 10 MB keys (8 ∥)', async (port) => {
  const bombs = await Promise.all(Array.from({ length: 8 }, (_, i) => bomb(i)).map((b) => request(port, post('/h/hostile', b), b)))
  const keys = await inParallel(Array.from({ length: 30 }, (_, i) => i), 8, (i) => {
    const body = uniqueKey(i)
    return request(port, post('/h/hostile', body), body)
  })
  return [...bombs, ...keys]
})
const b = await scenario('50 parallel 10 MB bodies', async (port) => {
  const body = Buffer.alloc(BODY, 'b')
  return Promise.all(Array.from({ length: 50 }, () => request(port, post('/h/ping', body), body)))
})

console.log(`Hostile benchmark: ${process.version}; the machine is shared (figures are indicative)\n`)
console.log('| scenario | s | 2xx / 503 / other | peak RSS MiB | heap after GC MiB (before → after) | DB growth MiB | unrelated request: max / p99 ms | event loop held max ms | rows | digest keys | not inspected |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of [a, b]) {
  console.log(
    `| ${r.name} | ${r.seconds} | ${r.answered.ok2xx} / ${r.answered.s503} / ${r.answered.other} | ${r.peakRssMiB} | ${r.heapAfterGcMiB.before} → ${r.heapAfterGcMiB.after} | ${r.dbGrowthMiB} | ${r.unrelatedWaitMs.max} / ${r.unrelatedWaitMs.p99} (${r.unrelatedWaitMs.samples}) | ${r.loopHeldMaxMs} | ${r.rows} | ${r.digestKeys} | ${r.notInspected} |`,
  )
}
console.log(JSON.stringify({ bench: 'hostile', scenarios: [a, b] }))
