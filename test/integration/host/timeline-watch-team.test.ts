// The timeline watch on a team's PostgreSQL (host/timeline-watch.ts): two hosts on one database,
// as two `serve` processes, each numbering requests from blocks of the sequence it took ahead. A
// host that stayed idle holds ids far below the other's newest, so its next request is committed
// with an id thousands of rows back; a browser of the other host still gets that row, because the
// watch follows the order requests were committed in, not their ids.
import { describe, expect, it } from 'vitest'
import type { ServerFrame, TimelineRow } from '../../../shared/contract'
import type { Host } from '../../../electron/engine/host/run-host'
import { usePostgres } from '../../support/use-postgres'
import { connectControl } from './support/control-client'
import { useTeamHosts } from './support/team-hosts'

const postgres = usePostgres()
const { hostOn, cleanups } = useTeamHosts()

async function capture(host: Host, slug: string, n: number): Promise<number> {
  const res = await fetch(host.engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) })
  await res.arrayBuffer()
  expect(res.status).toBe(200)
  const row = await host.engine.store.engine.get<{ id: number }>("SELECT id FROM requests WHERE body = CAST(? AS BYTEA)", [Buffer.from(JSON.stringify({ n }))])
  return Number(row?.id)
}

describe('the timeline watch on a team PostgreSQL', () => {
  it('pushes a row another process committed with an id far below the newest', async () => {
    const url = await postgres.freshDatabase()
    // A takes its first block of ids now and stays idle while B numbers on past it.
    const a = await hostOn(url)
    const b = await hostOn(url)
    await a.host.engine.receiver.endpoints.create({ slug: 'team' })
    await b.host.engine.receiver.reloadDefinitions()
    const browser = await connectControl(b.host, b.token)
    cleanups.push(() => browser.ws.close())
    const pushed = new Set<number>()
    let heard: () => void = () => {}
    browser.ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as ServerFrame
      if (frame.t !== 'events') return
      for (const event of frame.batch) {
        if (event.name !== 'timeline.upsert') continue
        for (const row of (event.payload as { rows: TimelineRow[] }).rows) for (const mark of row.marks) if (mark.kind === 'request') pushed.add(mark.id)
      }
      heard()
    })
    const pushedAll = (ids: readonly number[]) =>
      new Promise<void>((done) => {
        heard = () => ids.every((id) => pushed.has(id)) && done()
        heard()
      })

    let n = 0
    let newest = 0
    // B's ids run past a window of 512 below A's next one.
    while (newest < 1_200) newest = await capture(b.host, 'team', ++n)
    await pushedAll([newest])
    const late = await capture(a.host, 'team', ++n)
    // Committed after B's newest, with an id far below it.
    expect(newest - late).toBeGreaterThan(1_000)
    const marker = await capture(b.host, 'team', ++n)
    await pushedAll([marker])
    // B's browser heard the marker, committed after A's row: it has heard A's row too.
    expect(pushed.has(late), `request ${late}, committed after ${newest}, was not pushed to B's browser`).toBe(true)
    console.log(`A's request ${late} committed after B's ${newest} (${newest - late} ids below): pushed to B's browser`)
  }, 180_000)
})
