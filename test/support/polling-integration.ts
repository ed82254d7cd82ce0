// A small "integration under test": it takes webhooks on its own HTTP server and, like a careful
// consumer, also reads the sender's polling feed, so a lost webhook is still processed.
// Processing is idempotent by event_id (the webhook and the feed may both bring an event).
import http from 'node:http'
import type { FeedPage } from '../../shared/contract'

export interface PollingIntegration {
  url: string
  /** event_id → how it first reached us. */
  processed: Map<string, 'webhook' | 'poll'>
  /** Polls the feed from the last watermark until has_more is false (bounded); returns events newly processed. */
  reconcile(): Promise<string[]>
  close(): Promise<void>
}

export async function startPollingIntegration(options: { feedUrl: string; since: string; pageSize?: number }): Promise<PollingIntegration> {
  const processed = new Map<string, 'webhook' | 'poll'>()
  // The watermark: a timestamp to start from, then the cursor of the last page read. The feed's
  // updated_since is inclusive, so restarting from a timestamp never skips an event.
  let since = options.since
  let cursor: string | null = null
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      try {
        const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id?: string }
        if (envelope.event_id && !processed.has(envelope.event_id)) processed.set(envelope.event_id, 'webhook')
        res.writeHead(200).end('ok')
      } catch {
        res.writeHead(400).end('not JSON')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    processed,
    async reconcile() {
      const fresh: string[] = []
      for (let page = 0; page < 1000; page++) {
        const params = new URLSearchParams({ limit: String(options.pageSize ?? 50) })
        if (cursor) params.set('cursor', cursor)
        else params.set('updated_since', since)
        const response = await fetch(`${options.feedUrl}?${params}`)
        if (response.status !== 200) throw new Error(`feed answered ${response.status}: ${await response.text()}`)
        const body = (await response.json()) as FeedPage
        for (const event of body.data) {
          if (!processed.has(event.event_id)) {
            processed.set(event.event_id, 'poll')
            fresh.push(event.event_id)
          }
          since = event.created_at
        }
        if (body.next_cursor) cursor = body.next_cursor
        if (!body.has_more) {
          cursor = null // the next poll starts again from the (inclusive) timestamp watermark
          return fresh
        }
      }
      throw new Error('the feed kept saying has_more after 1000 pages')
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
