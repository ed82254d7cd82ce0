// A sloppy webhook consumer, the kind the check exists to catch: it never looks at the signature
// (so wrong, missing and stale ones all pass), parses JSON without a guard (500 on a malformed
// body), inserts the id into a unique column (500 on a duplicate), and is slow. With `redirectTo`
// it only answers 308 pointing there, like an http→https redirect in front of the app.
import { setTimeout as sleep } from 'node:timers/promises'
import { serveConsumer, type RunningConsumer } from './server'

export interface SloppyOptions {
  /** Wall time before each answer. */
  delayMs: number
  redirectTo?: string
}

export async function startSloppyConsumer(options: SloppyOptions): Promise<RunningConsumer> {
  const ids = new Set<string>()
  return serveConsumer(async (_headers, body) => {
    await sleep(options.delayMs)
    if (options.redirectTo) return { status: 308, headers: { location: options.redirectTo } }
    const event = JSON.parse(body.toString('utf8')) as { id: string } // throws → 500
    if (ids.has(event.id)) return { status: 500, body: 'duplicate key value violates unique constraint "events_pkey"' }
    ids.add(event.id)
    return { status: 200, body: 'ok' }
  })
}
