// The receiver on a team's PostgreSQL (createReceiver without a Database: `store` and `secrets`):
// breakpoints kept in the store and read by another process's receiver, a held request said in
// the store and released by another process's ask, a captured request resent with its leg stored,
// and the synchronous reads of a data folder refused in a clear sentence.
import { createServer, type Server } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver, type Receiver } from '../../../electron/engine/receiver'
import { StoreError, type OpenedStore } from '../../../electron/engine/store'
import { useTeamStores } from '../../support/use-team-stores'

const stores = useTeamStores()
const teamStore = (url: string) => stores.open(url)

async function receiverOn(store: OpenedStore): Promise<Receiver> {
  const receiver = await createReceiver({ store: store.engine, secrets: store.secrets, clock: createRealClock(), schemaVerdicts: false, keepProcessAlive: false })
  stores.after(() => receiver.close())
  return receiver
}

describe('the receiver on a team\'s PostgreSQL', () => {
  it('keeps breakpoints in the store, says a held request there, and acts on another process\'s ask', async () => {
    const url = await stores.freshDatabase()
    const a = await receiverOn(await teamStore(url))
    const otherStore = await teamStore(url)
    const b = await receiverOn(otherStore)
    const endpoint = await a.endpoints.create({ slug: 'pay' })
    a.breakpoints.put({ id: 'bp-pay', endpointId: endpoint.id, matchers: [{ type: 'method', method: 'POST' }], limitMs: 60_000 })

    // The other process reads the list the first one saved.
    for (let i = 0; i < 200 && b.breakpoints.list().length === 0; i++) {
      await b.reloadDefinitions()
      if (b.breakpoints.list().length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(b.breakpoints.list().map((bp) => bp.id)).toEqual(['bp-pay'])

    const held = new Promise<void>((resolve) => {
      const off = a.subscribe((event) => {
        if (event.type !== 'breakpoint.held') return
        off()
        resolve()
      })
    })
    const answer = fetch(a.endpointUrl('pay'), { method: 'POST', body: '{"amount":5}' })
    await held
    // Said in the store by a write of its own, awaited beside the hold.
    let heldRows: { key: string }[] = []
    for (let i = 0; i < 500 && heldRows.length === 0; i++) {
      heldRows = await otherStore.engine.all<{ key: string }>("SELECT key FROM settings WHERE key LIKE 'held:%'")
      if (heldRows.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(heldRows).toHaveLength(1)
    const requestId = Number(heldRows[0]!.key.slice('held:'.length))
    expect(a.breakpoints.held().map((h) => h.requestId)).toEqual([requestId])
    // Another process asks (as `hookloop breakpoint` does): the holder releases it.
    await otherStore.engine.run('INSERT INTO settings (key, value_json) VALUES (?, ?)', [`hold-ask:${requestId}`, JSON.stringify({ action: 'release' })])
    const response = await answer
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('OK')
    await a.requests.committed()
    const stored = await otherStore.engine.get<{ fault_json: string | null; response_status: number }>('SELECT fault_json, response_status FROM requests WHERE id = ?', [requestId])
    expect(stored?.response_status).toBe(200)
    expect(JSON.parse(stored!.fault_json!).hold.end).toBe('released')
    expect(await otherStore.engine.all("SELECT key FROM settings WHERE key LIKE 'held:%' OR key LIKE 'hold-ask:%'")).toEqual([])
  })

  it('resends a captured request and stores its leg; the synchronous reads of a data folder are refused in a sentence', async () => {
    const store = await teamStore(await stores.freshDatabase())
    const receiver = await receiverOn(store)
    await receiver.endpoints.create({ slug: 'app' })
    const got: string[] = []
    const target: Server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        got.push(Buffer.concat(chunks).toString())
        res.end('thanks')
      })
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    stores.after(() => new Promise<void>((resolve) => target.close(() => resolve())))
    const port = (target.address() as { port: number }).port

    expect((await fetch(receiver.endpointUrl('app'), { method: 'POST', body: '{"n":1}' })).status).toBe(200)
    const captured = await store.engine.get<{ id: number }>('SELECT id FROM requests')
    const leg = await receiver.resend(Number(captured!.id), { to: `http://127.0.0.1:${port}/hooks`, mode: 'as-is' })
    expect(leg.outcome).toBe('answered')
    expect(got).toEqual(['{"n":1}'])
    const legs = await store.engine.all<{ id: number; request_id: number; response_status: number }>('SELECT id, request_id, response_status FROM forward_legs')
    expect(legs).toEqual([{ id: leg.id, request_id: Number(captured!.id), response_status: 200 }])

    expect(() => receiver.requests.get(1)).toThrow(StoreError)
    expect(() => receiver.forwards.list(1)).toThrow(/read it through the store/)
  })
})
