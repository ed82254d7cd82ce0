// The definitions (endpoints, rules, subscriptions) on both store engines, awaited through
// SqlEngine: a real SQLite file and a real PostgreSQL. Each engine is opened twice on the same
// store, as two processes would: an edit made on an older revision of a rule through one is
// refused by the UPDATE itself, whichever connection made the newer one. Secrets are sealed in
// the column on both engines.
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EditConflictError, DefinitionError, type Endpoint } from '../../../shared/receiver'
import { createRealClock } from '../../../electron/engine/clock'
import { createDefinitions } from '../../../electron/engine/receiver/definitions'
import { createDedupeTracker } from '../../../electron/engine/receiver/dedupe'
import { createRuleEngine } from '../../../electron/engine/receiver/rule-engine'
import { createSubscriptionBook } from '../../../electron/engine/sender/subscriptions'
import {
  createEndpointStore,
  createRequestStore,
  createRuleStore,
  createSubscriptionStatements,
  openDatabase,
  openStore,
  parseStoreLocation,
  type OpenedStore,
  type StoreKind,
} from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { makeTempDir } from '../../support/temp-dir'

const postgres = usePostgres()
const quiet = { notice: () => undefined }
const ENDPOINT_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const SUBSCRIPTION_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

let temp: ReturnType<typeof makeTempDir>
// Two connections to one store per engine: `first` and `second`.
const stores = {} as Record<StoreKind, { first: OpenedStore; second: OpenedStore }>
// The dedupe tracker forgets keys in memory; its store is a real data folder's requests table.
let requestsDb: ReturnType<typeof openDatabase>

beforeAll(async () => {
  temp = makeTempDir('hookloop-definitions-engines-')
  const folder = parseStoreLocation(join(temp.dir, 'folder'))
  stores.sqlite = { first: await openStore(folder, quiet), second: await openStore(folder, quiet) }
  const team = parseStoreLocation(await postgres.freshDatabase())
  const key = { postgresKey: { file: join(temp.dir, 'team.key') } }
  stores.postgres = { first: await openStore(team, { ...quiet, ...key }), second: await openStore(team, { ...quiet, ...key }) }
  requestsDb = openDatabase({ file: join(temp.dir, 'requests', 'hookloop.db'), notice: () => undefined })
}, 120_000)
afterAll(async () => {
  for (const pair of Object.values(stores)) {
    await pair.first?.engine.close()
    await pair.second?.engine.close()
  }
  requestsDb?.close()
  temp?.cleanup()
})

let ids = 0
async function definitionsOn(store: OpenedStore) {
  return createDefinitions({
    store: store.engine,
    secrets: store.secrets,
    clock: createRealClock(),
    newId: () => `id-${++ids}`,
    dedupe: createDedupeTracker(createRequestStore(requestsDb), 0),
    engine: createRuleEngine(),
    self: () => ({ host: '127.0.0.1', port: 1, publicUrl: undefined }),
  })
}

const reply = (status: number) => ({ steps: [{ type: 'reply', status }] })

describe.each(['sqlite', 'postgres'] as const)('the definitions on %s', (kind) => {
  beforeEach(async () => {
    const { engine } = stores[kind].first
    await engine.run('DELETE FROM rules')
    await engine.run('DELETE FROM endpoints')
    await engine.run('DELETE FROM subscriptions')
  })

  it('creates, reads, updates and deletes an endpoint; its rules go with it', async () => {
    const { engine, secrets } = stores[kind].first
    const endpoints = createEndpointStore(engine, secrets)
    const endpoint: Endpoint = {
      id: 'ep-1',
      slug: 'orders',
      name: 'Orders',
      scheme: 'standard-webhooks',
      secrets: [ENDPOINT_SECRET],
      toleranceSeconds: 300,
      custom: null,
      dedupe: { type: 'header', name: 'webhook-id' },
      dedupeWindowMs: 60_000,
      bodyLimit: 1024,
      createdAt: 1_790_000_000_000,
      forwardTo: ['http://127.0.0.1:9/app'],
    }
    await endpoints.insert(endpoint)
    expect(await endpoints.get('ep-1')).toEqual(endpoint)
    expect(await endpoints.getBySlug('orders')).toEqual(endpoint)
    expect(await endpoints.update({ ...endpoint, slug: 'orders-v2', secrets: [], forwardTo: undefined })).toBe(true)
    const { forwardTo: _dropped, ...updated } = endpoint
    expect(await endpoints.list()).toEqual([{ ...updated, slug: 'orders-v2', secrets: [] }])
    expect(await endpoints.getBySlug('orders')).toBeUndefined()

    const rules = createRuleStore(engine)
    await rules.insert({ id: 'r-1', endpointId: 'ep-1', position: 0, enabled: true, rule: { steps: [{ type: 'reply', status: 503 }], enabled: true } as never, createdAt: 1 })
    expect(await rules.listFor('ep-1')).toHaveLength(1)
    expect(await endpoints.delete('ep-1')).toBe(true)
    expect(await endpoints.delete('ep-1')).toBe(false)
    expect(await rules.get('r-1')).toBeUndefined()
    expect(await endpoints.update(endpoint)).toBe(false)
  })

  it('refuses a slug another endpoint answers at, from this connection or the other', async () => {
    const first = await definitionsOn(stores[kind].first)
    const second = await definitionsOn(stores[kind].second)
    const made = await first.endpoints.create({ slug: 'shop' })
    await expect(second.endpoints.create({ slug: 'shop' })).rejects.toThrow(DefinitionError)
    await expect(second.endpoints.create({ slug: 'shop' })).rejects.toThrow(/already answers at \/h\/shop/)
    const other = await second.endpoints.create({ slug: 'other' })
    await expect(first.endpoints.update(other.id, { slug: 'shop' })).rejects.toThrow(/already answers at \/h\/shop/)
    // The statement refuses it too, whatever a check before it saw.
    const { engine, secrets } = stores[kind].second
    await expect(createEndpointStore(engine, secrets).insert({ ...made, id: 'copy' })).rejects.toThrow()
    // Each side routes by its own snapshot until it reloads.
    expect(first.route('/h/other')).toBeNull()
    await first.reload()
    expect(first.route('/h/other')?.endpoint.id).toBe(other.id)
    expect(await first.endpoints.delete(made.id)).toBe(true)
    expect(first.route('/h/shop')).toBeNull()
    expect(await first.endpoints.delete(made.id)).toBe(false)
  })

  it('adds rules at a position, reorders and turns them off, each change counting the revision', async () => {
    const definitions = await definitionsOn(stores[kind].first)
    const endpoint = await definitions.endpoints.create({ slug: 'rules' })
    const a = await definitions.rules.add(endpoint.id, { ...reply(500), name: 'a' })
    const b = await definitions.rules.add(endpoint.id, { ...reply(501), name: 'b' })
    const c = await definitions.rules.add(endpoint.id, { ...reply(502), name: 'c' }, { position: 0 })
    const order = () => definitions.rules.list(endpoint.id).map((r) => [r.rule.name, r.position])
    expect(order()).toEqual([['c', 0], ['a', 1], ['b', 2]])
    expect(await definitions.rules.reorder(a.id, 5)).toBe(true)
    expect(order()).toEqual([['c', 0], ['b', 1], ['a', 2]])
    expect(await definitions.rules.reorder('missing', 0)).toBe(false)
    expect(await definitions.rules.enable(b.id, false)).toBe(true)
    // Turning it off again changes nothing, and says the rule is there.
    expect(await definitions.rules.enable(b.id, false)).toBe(true)
    expect(await definitions.rules.enable('missing', false)).toBe(false)
    const stored = await createRuleStore(stores[kind].second.engine).listFor(endpoint.id)
    expect(stored.map((r) => [r.rule.name, r.position, r.enabled, r.revision])).toEqual([
      ['c', 0, true, 1],
      ['b', 1, false, 2],
      ['a', 2, true, 1],
    ])
    // The rule engine answers by the snapshot: b is off.
    expect(definitions.rules.list(endpoint.id).find((r) => r.id === b.id)?.enabled).toBe(false)
    expect(await definitions.rules.delete(c.id)).toBe(true)
    expect(definitions.rules.list(endpoint.id).map((r) => r.id)).toEqual([b.id, a.id])
    // A global rule (every endpoint) keeps an order of its own.
    const global = await definitions.rules.add(null, reply(418))
    expect((await createRuleStore(stores[kind].first.engine).listFor(null)).map((r) => r.id)).toEqual([global.id])
  })

  it("keeps each workspace's rules for every endpoint to its own endpoints, in an order of their own", async () => {
    const engine = createRuleEngine()
    const definitions = await createDefinitions({
      store: stores[kind].first.engine,
      secrets: stores[kind].first.secrets,
      clock: createRealClock(),
      newId: () => `id-${++ids}`,
      dedupe: createDedupeTracker(createRequestStore(requestsDb), 0),
      engine,
      self: () => ({ host: '127.0.0.1', port: 1, publicUrl: undefined }),
    })
    const shop = await definitions.endpoints.create({ slug: 'shop' })
    const pay = await definitions.endpoints.create({ slug: 'pay' }, 'ws_pay')
    const defaults = await definitions.rules.add(null, { ...reply(500), name: 'default every' })
    const pays = await definitions.rules.add(null, { ...reply(503), name: 'pay every' }, { workspaceId: 'ws_pay' })
    const paysSecond = await definitions.rules.add(null, { ...reply(504), name: 'pay second' }, { workspaceId: 'ws_pay' })
    // An endpoint's rule is its endpoint's workspace's, whatever is asked.
    const own = await definitions.rules.add(pay.id, { ...reply(201), matchers: [{ type: 'method', method: 'PUT' }] }, { workspaceId: 'default' })
    expect([defaults.workspaceId, pays.workspaceId, own.workspaceId]).toEqual(['default', 'ws_pay', 'ws_pay'])
    const rules = createRuleStore(stores[kind].second.engine)
    expect((await rules.listFor(null)).map((r) => r.id)).toEqual([defaults.id])
    expect((await rules.listFor(null, 'ws_pay')).map((r) => [r.id, r.position])).toEqual([[pays.id, 0], [paysSecond.id, 1]])
    // Moving one among its workspace's: the other workspace's order is not in the count.
    expect(await definitions.rules.reorder(paysSecond.id, 0)).toBe(true)
    expect((await rules.listFor(null, 'ws_pay')).map((r) => [r.id, r.position])).toEqual([[paysSecond.id, 0], [pays.id, 1]])
    expect((await rules.listFor(null)).map((r) => [r.id, r.position])).toEqual([[defaults.id, 0]])

    // The receiver's routes know each endpoint's workspace, and its rules answer by it.
    const live = { shop: definitions.live('shop'), pay: definitions.live('pay') }
    expect([live.shop?.workspace, live.pay?.workspace]).toEqual(['default', 'ws_pay'])
    const request = { method: 'POST', path: '/h/x', query: '', headers: {}, json: () => ({}), arrival: null, dedupeKey: null }
    const answer = (endpointId: string, workspace: string, method = 'POST') => engine.plan(endpointId, workspace, { ...request, method })?.steps[0]
    expect(answer(shop.id, 'default')).toEqual({ type: 'reply', status: 500 })
    expect(answer(pay.id, 'ws_pay')).toEqual({ type: 'reply', status: 504 })
    expect(answer(pay.id, 'ws_pay', 'PUT')).toEqual({ type: 'reply', status: 201 })
  })

  it('refuses an edit made on an older revision, made through the other connection', async () => {
    const first = await definitionsOn(stores[kind].first)
    const second = await definitionsOn(stores[kind].second)
    const endpoint = await first.endpoints.create({ slug: 'conflict' })
    const added = await first.rules.add(endpoint.id, reply(500))
    await second.reload()
    expect(second.rules.list(endpoint.id)[0]?.revision).toBe(1)
    // Both saw revision 1; the first edit wins, the second is refused by the UPDATE and names both.
    expect((await first.rules.update(added.id, reply(429), 1)).revision).toBe(2)
    const refused = await second.rules.update(added.id, reply(410), 1).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(EditConflictError)
    expect(refused).toMatchObject({ given: 1, current: 2 })
    const stored = await createRuleStore(stores[kind].second.engine).get(added.id)
    expect([stored?.revision, stored?.rule.steps?.[0]]).toEqual([2, { type: 'reply', status: 429 }])
    // An edit that names no revision replaces whatever is there.
    expect((await second.rules.update(added.id, reply(200))).revision).toBe(3)
  })

  it('creates, pauses, resumes and rotates a subscription; another connection reads what was saved', async () => {
    const { first, second } = stores[kind]
    const book = createSubscriptionBook(createSubscriptionStatements(first.engine, first.secrets))
    await book.reload()
    const created = await book.create({ id: 'sub-1', name: 'shop', target: { url: 'http://127.0.0.1:9/hook' }, scheme: 'standard-webhooks', secrets: [SUBSCRIPTION_SECRET], policy: 'pandoktorek' }, 1_000)
    await expect(book.create({ id: 'sub-1', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'pandoktorek' }, 1_001)).rejects.toThrow(/exists already/)
    // The attempt path reads it from memory.
    expect(book.get('sub-1')).toEqual(created)
    expect((await book.setPaused('sub-1', true, 2_000)).paused).toBe(true)
    const other = createSubscriptionBook(createSubscriptionStatements(second.engine, second.secrets))
    await other.reload()
    expect(other.require('sub-1')).toMatchObject({ paused: true, updatedAt: 2_000, secret: SUBSCRIPTION_SECRET })
    expect((await book.setPaused('sub-1', false, 3_000)).paused).toBe(false)
    const rotated = await book.rotate('sub-1', 4_000)
    expect(rotated.secret).not.toBe(SUBSCRIPTION_SECRET)
    expect(rotated.retiredSecrets).toEqual([SUBSCRIPTION_SECRET])
    // The other book keeps its copy until it reloads.
    expect(other.require('sub-1').paused).toBe(true)
    await other.reload()
    expect(other.require('sub-1')).toMatchObject({ paused: false, secret: rotated.secret, retiredSecrets: [SUBSCRIPTION_SECRET], updatedAt: 4_000 })
    // A command on the other book starts from the store's row.
    expect((await other.update('sub-1', { name: 'renamed' }, 5_000)).secret).toBe(rotated.secret)
    await book.reload()
    expect(book.list().map((s) => [s.id, s.name])).toEqual([['sub-1', 'renamed']])
    await expect(book.setPaused('missing', true, 6_000)).rejects.toThrow(/no subscription "missing"/)
  })

  it('seals the secrets in their column: the raw value is not the secret', async () => {
    const definitions = await definitionsOn(stores[kind].first)
    const endpoint = await definitions.endpoints.create({ slug: 'sealed', scheme: 'standard-webhooks', secrets: [ENDPOINT_SECRET] })
    const book = createSubscriptionBook(createSubscriptionStatements(stores[kind].first.engine, stores[kind].first.secrets))
    await book.create({ id: 'sealed', target: { endpoint: 'sealed' }, scheme: 'standard-webhooks', secrets: [SUBSCRIPTION_SECRET], policy: 'pandoktorek' }, 1)
    const { engine } = stores[kind].second
    const rawEndpoint = await engine.get<{ secrets_json: string }>('SELECT secrets_json FROM endpoints WHERE id = ?', [endpoint.id])
    const rawSubscription = await engine.get<{ secrets_json: string }>('SELECT secrets_json FROM subscriptions WHERE id = ?', ['sealed'])
    for (const [raw, secret] of [
      [rawEndpoint?.secrets_json, ENDPOINT_SECRET],
      [rawSubscription?.secrets_json, SUBSCRIPTION_SECRET],
    ] as const) {
      expect(raw).toMatch(/^hlenc1:/)
      expect(raw).not.toContain(secret)
      expect(raw).not.toContain(secret.slice('whsec_'.length))
    }
    // Opened on the way out, through the other connection with the same key.
    expect((await createEndpointStore(engine, stores[kind].second.secrets).get(endpoint.id))?.secrets).toEqual([ENDPOINT_SECRET])
  })
})
