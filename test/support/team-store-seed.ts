// A data folder filled by a real engine with what the timeline and the inspector show (a loop
// delivery retried through a fault rule, a duplicate arrival, a refused request, a forward leg,
// keyless bodies, one JSON, one not, one not even UTF-8, a simulation's clock), and its copy in a
// real PostgreSQL (`copyStore`): the same store on both engines, for tests that read both.
import { join } from 'node:path'
import { createVirtualClock } from '../../electron/engine/clock'
import { copyStore, openStore, parseStoreLocation, type OpenedStore } from '../../electron/engine/store'
import { openEngine } from './engine'
import { startApp } from './forward-apps'

export interface TeamStoreSeed {
  /** The data folder, and the team store copied from it. */
  dataDir: string
  teamUrl: string
  /** The team store's data key file (HOOKLOOP_SECRET_KEY_FILE). */
  keyFile: string
  folder: OpenedStore
  team: OpenedStore
  /** The simulation the engine's virtual clock ran: its deliveries are on that clock. */
  simulationId: string | null
  close(): Promise<void>
}

export async function seedTeamStore(dir: string, freshDatabase: () => Promise<string>): Promise<TeamStoreSeed> {
  const dataDir = join(dir, 'data')
  const keyFile = join(dir, 'team.key')
  const quiet = { notice: () => undefined }
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) })
  const engine = await openEngine(dataDir, clock)
  // Your app behind a forwarding endpoint: each request there gets a leg to it.
  const app = await startApp((_req, res) => res.writeHead(202).end('ok'))
  let simulationId: string | null = null
  try {
    await engine.putEndpoint({ slug: 'orders', name: 'Orders', scheme: null, secrets: [], dedupe: 'stripe', rules: [{ preset: 'fail-first', n: 2 }] })
    await engine.putEndpoint({ slug: 'plain', name: 'Plain', scheme: null, secrets: [], dedupe: null })
    await engine.putEndpoint({ slug: 'small', name: 'Small', scheme: null, secrets: [], dedupe: null, body_limit: 16 })
    await engine.putEndpoint({ slug: 'app', name: 'App', scheme: null, secrets: [], dedupe: null, forward_to: [`${app.url}/hooks`] })
    const subscription = await engine.putSubscription({ name: 'orders', target: { endpoint: 'orders' }, scheme: 'stripe', secrets: ['whsec_dGVhbSBzdG9yZSB0ZXN0IHNlY3JldA'], policy: 'stripe' })
    await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'invoice.paid', payload: { id: 'evt_team_paid', object: 'event', type: 'invoice.paid' } })
    await engine.sender.settled()
    const post = async (slug: string, body: string | Buffer) => (await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json' }, body })).arrayBuffer()
    // The same event twice (a duplicate arrival), another event, and keyless bodies, one not JSON.
    const charge = JSON.stringify({ id: 'evt_team_charge', object: 'event', type: 'charge.failed' })
    await post('orders', charge)
    await post('orders', charge)
    await post('orders', JSON.stringify({ id: 'evt_team_other', object: 'event', type: 'customer.created' }))
    await post('plain', JSON.stringify({ event_type: 'ping', note: 'café ørsted' }))
    // GitHub names the event in X-GitHub-Event alone: its payload has no type field.
    await (await fetch(engine.receiver.endpointUrl('plain'), { method: 'POST', headers: { 'content-type': 'application/json', 'X-GitHub-Event': 'push' }, body: JSON.stringify({ ref: 'refs/heads/main', type: 'not-this' }) })).arrayBuffer()
    await post('plain', 'not json at all')
    // Bytes that are not UTF-8 (and a NUL): PostgreSQL cannot read them as text, SQLite can; neither fails a page.
    await post('plain', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x7b]))
    // Refused by the receiver: past the endpoint's body limit.
    await post('small', JSON.stringify({ event_type: 'too.big', padding: 'x'.repeat(64) }))
    // Forwarded to the app: a leg under its mark.
    await post('app', JSON.stringify({ event_type: 'forwarded' }))
    // At no endpoint.
    await (await fetch(`${engine.receiver.url}/h/nowhere`, { method: 'POST', body: '{}' })).arrayBuffer()
    await engine.quiesce()
    simulationId = engine.simulation?.id ?? null
  } finally {
    await engine.close()
    clock.dispose()
    await app.close()
  }
  const folder = await openStore(parseStoreLocation(dataDir), quiet)
  const teamUrl = await freshDatabase()
  const team = await openStore(parseStoreLocation(teamUrl), { ...quiet, postgresKey: { file: keyFile } })
  await copyStore(folder, team)
  return {
    dataDir,
    teamUrl,
    keyFile,
    folder,
    team,
    simulationId,
    async close() {
      await folder.engine.close()
      await team.engine.close()
    },
  }
}
