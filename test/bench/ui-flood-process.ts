// The flood for bench:ui, in its own process so it never shares an event loop with what it
// measures: POSTs to one endpoint at a steady rate (default 1 000/s) for a set time, each with its
// own event id. Prints one JSON line with what it sent and how it was answered.
import { request } from 'undici'

const [url = '', rateText = '1000', secondsText = '4'] = process.argv.slice(2)
const rate = Number(rateText)
const seconds = Number(secondsText)
const TICK_MS = 10
const perTick = Math.max(1, Math.round((rate * TICK_MS) / 1000))
let sent = 0
let ok = 0
let failed = 0
const started = Date.now()

async function one(i: number): Promise<void> {
  const id = `flood-${process.pid}-${i}`
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id },
      body: JSON.stringify({ event_id: id, event_type: 'flood.test', payload: { i } }),
    })
    await res.body.dump()
    if (res.statusCode < 500) ok++
    else failed++
  } catch {
    failed++
  }
}

const inflight: Promise<void>[] = []
const timer = setInterval(() => {
  if (Date.now() - started >= seconds * 1000) {
    clearInterval(timer)
    void Promise.all(inflight).then(() => {
      process.stdout.write(`${JSON.stringify({ sent, ok, failed, seconds: (Date.now() - started) / 1000 })}\n`)
    })
    return
  }
  for (let i = 0; i < perTick; i++) inflight.push(one(sent++))
}, TICK_MS)
