// The polling feed on a team's PostgreSQL, over real HTTP to the receiver's port: the same pages as
// a data folder gives for the same history, and, with several engines (several pools, as several
// `serve` processes) publishing at once and committing out of id order, a poller paging with small
// pages while they write misses no event and sees none twice (store/feed-order.ts).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createVirtualClock } from '../../../electron/engine/clock'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { createEventFeed } from '../../../electron/engine/feed'
import { createEventStore, type OpenedStore } from '../../../electron/engine/store'
import type { FeedPage } from '../../../shared/contract'
import { useTeamStores } from '../../support/use-team-stores'
import { useTempDir } from '../../support/use-temp-dir'

// The folder goes after the engines on it are closed (hooks after a test run last-registered first).
const temp = useTempDir('hookloop-feed-pg-')
const teams = useTeamStores()
const START = Date.UTC(2026, 10, 29, 12, 0, 0)
const EPOCH = '1970-01-01T00:00:00Z'

async function engineOn(options: { store: OpenedStore } | { dataDir: string }, clock = createVirtualClock({ start: START })): Promise<Engine> {
  // Real traffic's clock is the virtual one too: stored_at is the same on both stores.
  const engine = await createEngine({ ...options, clock, wallClock: clock, receiver: { host: '127.0.0.1', port: 0 } })
  teams.after(async () => {
    await engine.close()
    clock.dispose()
  })
  return engine
}

async function feedText(engine: Engine, query: string): Promise<string> {
  const response = await fetch(`${engine.receiver.url}/api/v1/events?${query}`)
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return text
}

/** Publishes the same history on an engine: events at equal and later times, pending and dropped deliveries. */
async function publishHistory(engine: Engine): Promise<void> {
  await engine.putSubscription({ id: 'sub-paused', name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
  await engine.putSubscription({ id: 'sub-lost', name: 'lost', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku' })
  const event = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
  // Ids out of their publishing order: the feed's order is the store's, not the ids'.
  for (const n of [5, 3, 9, 1, 7]) await engine.sendEvent({ eventId: event(n), subscriptionIds: ['sub-paused'], eventType: `t.${n}`, payload: { n } })
  await engine.clock.sleep(1000)
  for (const n of [2, 8]) await engine.sendEvent({ eventId: event(n), subscriptionIds: ['sub-paused', 'sub-lost'], eventType: `t.${n}`, payload: { n, lost: true }, faults: [{ type: 'drop' }] })
  await engine.sender.settled()
  await engine.clock.sleep(1000)
  for (const n of [6, 4]) await engine.sendEvent({ eventId: event(n), subscriptionIds: ['sub-paused'], eventType: `t.${n}`, payload: { n } })
}

/** Every page a poller reads of the history, as the bodies the feed answered (its simulation's id named alike). */
async function pagesOf(engine: Engine): Promise<string[]> {
  const bodies: string[] = []
  const read = async (query: string) => {
    const text = (await feedText(engine, query)).replaceAll(engine.simulation?.id ?? '-', 'the-simulation')
    bodies.push(text)
    return JSON.parse(text) as FeedPage
  }
  for (const since of [EPOCH, new Date(START + 1000).toISOString(), new Date(START + 1001).toISOString(), new Date(START + 5000).toISOString()]) {
    await read(`updated_since=${since}`)
  }
  let page = await read(`updated_since=${EPOCH}&limit=2`)
  while (page.next_cursor) page = await read(`cursor=${page.next_cursor}&limit=2`)
  page = await read(`updated_since=${new Date(START + 1000).toISOString()}&limit=1`)
  while (page.next_cursor) page = await read(`cursor=${page.next_cursor}&limit=1&updated_since=${new Date(START + 1000).toISOString()}`)
  return bodies
}

describe('the polling feed on a team’s PostgreSQL', () => {
  it('answers the same pages, bodies and cursors alike, as a data folder with the same history', async () => {
    const folder = await engineOn({ dataDir: join(temp.dir, 'folder') })
    const team = await engineOn({ store: await teams.open(await teams.freshDatabase()) })
    await publishHistory(folder)
    await publishHistory(team)
    const fromFolder = await pagesOf(folder)
    const fromTeam = await pagesOf(team)
    expect(fromTeam).toEqual(fromFolder)
    // The history is all there, in the order it was published.
    expect((JSON.parse(fromFolder[0]!) as FeedPage).data.map((e) => e.event_type)).toEqual(['t.5', 't.3', 't.9', 't.1', 't.7', 't.2', 't.8', 't.6', 't.4'])
    expect((JSON.parse(fromFolder[0]!) as FeedPage).data[5]?.deliveries.map((d) => [d.subscription_id, d.last_outcome])).toEqual([
      ['sub-paused', null],
      ['sub-lost', 'dropped'],
    ])
  })

  it('lists an event that committed after a later-numbered one, after it, so a cursor taken between the two commits finds it', async () => {
    const url = await teams.freshDatabase()
    const writer = await teams.open(url)
    const reader = createEventFeed((await teams.open(url)).engine)
    const event = (id: string) => ({ id, eventType: 'order.paid', payload: Buffer.from('{}'), createdAt: START, storedAt: START })
    await createEventStore(writer.engine).insertNew(event('a-first'))

    // "b-slow" is inserted first (a lower id, an earlier time) but commits last.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let inserted = () => {}
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve))
    const slow = writer.engine.transaction(async (tx) => {
      await createEventStore(tx).insertNew(event('b-slow'))
      inserted()
      await held
    })
    await insertedYet
    await createEventStore(writer.engine).insertNew(event('c-quick'))

    // A poller reads now: b-slow is not committed, so the page ends at c-quick.
    const now = await reader.page({ since: null, after: null, limit: 10 })
    expect(now.data.map((e) => e.event_id)).toEqual(['a-first', 'c-quick'])
    // Where a cursor ending at c-quick continues (the next_cursor of a page ending there holds it).
    const atQuick = { seq: (await writer.engine.get<{ seq: number }>('SELECT commit_seq AS seq FROM events WHERE id = ?', ['c-quick']))!.seq, event_id: 'c-quick' }
    release()
    await slow
    // b-slow committed after c-quick, so it is numbered after it: the poller's next page holds it.
    const next = await reader.page({ since: null, after: atQuick, limit: 10 })
    expect(next.data.map((e) => e.event_id)).toEqual(['b-slow'])
  })

  it('pages through events two engines publish at once, in small pages while they write: none missed, none twice', async () => {
    const url = await teams.freshDatabase()
    const first = await engineOn({ store: await teams.open(url) })
    await first.putSubscription({ id: 'sub', name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
    // Made after the subscription, so its sender's book holds it.
    const second = await engineOn({ store: await teams.open(url) })
    const PER_ENGINE = 240
    const IN_FLIGHT = 3
    const published: string[] = []
    let writing = true
    const publishFrom = async (engine: Engine, name: string) => {
      for (let i = 0; i < PER_ENGINE; i += IN_FLIGHT) {
        const batch = Array.from({ length: Math.min(IN_FLIGHT, PER_ENGINE - i) }, (_, k) => engine.sendEvent({ subscriptionIds: ['sub'], eventType: `${name}.${i + k}`, payload: { i: i + k } }))
        for (const result of await Promise.all(batch)) published.push(result.eventId)
        // A breath between batches, so the poller keeps reaching the end of the feed, where
        // transactions still in flight sit (pacing only: nothing is timed).
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }
    const writers = Promise.all([publishFrom(first, 'first'), publishFrom(second, 'second')]).finally(() => (writing = false))

    // A poller on the first engine's port: follows next_cursor while there is more; at the end of
    // the feed it keeps the last cursor it was given and asks from there again, so every page it
    // reads starts with what it already saw after that cursor, unchanged (a row committed late
    // would show up among them), then what is new.
    const seen: string[] = []
    let anchor: { cursor: string | null; at: number } = { cursor: null, at: 0 }
    let pages = 0
    let pagesWhileWriting = 0
    let caughtUp = 0
    for (;;) {
      const wasWriting = writing
      const query = anchor.cursor ? `cursor=${anchor.cursor}&limit=3` : `updated_since=${EPOCH}&limit=3`
      const page = JSON.parse(await feedText(first, query)) as FeedPage
      pages++
      if (wasWriting) pagesWhileWriting++
      const ids = page.data.map((e) => e.event_id)
      const known = seen.slice(anchor.at)
      expect(ids.slice(0, known.length)).toEqual(known)
      seen.push(...ids.slice(known.length))
      if (page.next_cursor) anchor = { cursor: page.next_cursor, at: anchor.at + ids.length }
      else if (!wasWriting) break
      else caughtUp++
    }
    await writers
    expect(new Set(seen).size).toBe(seen.length)
    expect([...seen].sort()).toEqual([...published].sort())

    // How often a commit came after one numbered (by its delivery's id, taken at insert) above it.
    const rows = await first.store.engine.all<{ seq: number; delivery: number }>(
      'SELECT e.commit_seq AS seq, min(d.id) AS delivery FROM events e JOIN deliveries d ON d.event_id = e.id GROUP BY e.commit_seq ORDER BY e.commit_seq',
    )
    let lateCommits = 0
    let highest = 0
    for (const row of rows) {
      if (row.delivery < highest) lateCommits++
      highest = Math.max(highest, row.delivery)
    }
    console.log(`feed on PostgreSQL: ${seen.length} events from two engines read in ${pages} pages of 3 (${pagesWhileWriting} while they wrote, ${caughtUp} of them at the end of the feed); ${lateCommits} committed after an event with a higher delivery id`)
  }, 180_000)
})
