// The definitions watch on a team's PostgreSQL (host/definitions-watch.ts over the store's change
// feed, LISTEN/NOTIFY): an endpoint another process makes reaches a browser of this one and this
// one's receiver answers at it; and after the listening connection was ended
// (pg_terminate_backend), a change made while it was gone is read once it is back. Connections to
// the database are refused meanwhile, so the change is made for certain while nothing listens.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { EndpointView, ServerFrame } from '../../../shared/contract'
import { DEFAULT_BODY_LIMIT, DEFAULT_DEDUPE_WINDOW_MS } from '../../../shared/receiver'
import { createEndpointStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { connectControl } from './support/control-client'
import { eventually, useTeamHosts } from './support/team-hosts'

const postgres = usePostgres()
const { hostOn, cleanups } = useTeamHosts()

/** The endpoint slugs each endpoints.changed a browser of `host` was pushed, newest last. */
async function browserOf(host: Awaited<ReturnType<typeof hostOn>>) {
  const browser = await connectControl(host.host, host.token)
  cleanups.push(() => browser.ws.close())
  const lists: string[][] = []
  browser.ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if (frame.t !== 'events') return
    for (const event of frame.batch) if (event.name === 'endpoints.changed') lists.push((event.payload as { endpoints: EndpointView[] }).endpoints.map((e) => e.slug))
  })
  return { ...browser, shown: (slug: string) => lists.some((list) => list.includes(slug)) }
}

const status = async (url: string) => {
  const res = await fetch(url, { method: 'POST', body: '{}' })
  await res.arrayBuffer()
  return res.status
}

/** Runs `sql` on the server's own database, beside the team's. */
async function asAdmin(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: postgres.urlOf('postgres') })
  await admin.connect()
  try {
    return await admin.query(sql, params)
  } finally {
    await admin.end()
  }
}

describe('the definitions watch on a team PostgreSQL', () => {
  it('pushes an endpoint another process made to a browser, and answers at it', async () => {
    const url = await postgres.freshDatabase()
    const a = await hostOn(url)
    const b = await hostOn(url)
    const onA = await connectControl(a.host, a.token)
    cleanups.push(() => onA.ws.close())
    const browser = await browserOf(b)
    await onA.call('endpoint.create', { name: 'made on A', slug: 'made-on-a', scheme: null, secrets: [], dedupe: null })
    await eventually(() => (browser.shown('made-on-a') ? true : undefined))
    expect(await status(b.host.engine.receiver.endpointUrl('made-on-a'))).toBe(200)
  }, 120_000)

  it('after its LISTEN connection was ended, reads again and shows a change made while it was gone', async () => {
    const url = await postgres.freshDatabase()
    const database = new URL(url).pathname.slice(1)
    const b = await hostOn(url)
    const browser = await browserOf(b)
    // Another process's connection, open before the database stops taking new ones.
    const other = await openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: String(process.env.HOOKLOOP_SECRET_KEY_FILE) } })
    cleanups.push(() => other.engine.close())
    const endpoints = createEndpointStore(other.engine, other.secrets)
    await endpoints.list()

    await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
    cleanups.push(() => asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).then(() => undefined))
    const ended = await asAdmin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'hookloop (changes)'", [database])
    expect(ended.rowCount).toBe(1)
    // Made while nothing listens and no listener can connect: its NOTIFY reaches no one, only a re-read finds it.
    await endpoints.insert({ id: randomUUID(), slug: 'while-gone', name: 'made while the listener was gone', scheme: null, secrets: [], toleranceSeconds: null, custom: null, dedupe: null, dedupeWindowMs: DEFAULT_DEDUPE_WINDOW_MS, bodyLimit: DEFAULT_BODY_LIMIT, createdAt: Date.now() })
    expect(browser.shown('while-gone')).toBe(false)

    await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
    await eventually(() => (browser.shown('while-gone') ? true : undefined))
    expect(await status(b.host.engine.receiver.endpointUrl('while-gone'))).toBe(200)
  }, 120_000)
})
