// An export reads the same from a data folder and from a team's PostgreSQL: a real engine fills a
// folder (a scenario run on a virtual clock, loop deliveries with their attempts, captures with a
// duplicate, a binary body, a body echoing a secret, more captures than one batch of reads), the
// folder is copied into a real PostgreSQL (store copy), and HAR, cURL and case files come out of
// both byte for byte the same, redacted and with secrets kept, and report the same progress.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { exportSelection } from '../../../electron/engine/exports'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { copyStore, EXPORT_BATCH, openStore, parseStoreLocation, type OpenedStore } from '../../../electron/engine/store'
import { EXPORT_FORMATS, type CaseFile, type Har } from '../../../shared/contract'
import { parseScenario } from '../../../shared/scenario'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

const postgres = usePostgres()
const quiet = { notice: () => undefined }
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const RETIRED = 'whsec_c2VjcmV0LXJldGlyZWQtaW4tdGhlLXRlYW0tc3Rvcg=='
const INBOX_SECRET = 'inbox-secret-value-0042'
/** More captures than one batch: the reads go over several batches. */
const CAPTURES = EXPORT_BATCH + 30

let temp: ReturnType<typeof makeTempDir>
let folder: OpenedStore
let team: OpenedStore
let requestIds: number[]
let deliveryIds: number[]

async function fillFolder(dir: string): Promise<void> {
  // A scenario on a virtual clock: deliveries whose times are on a simulation's clock.
  const parsed = parseScenario(readFileSync(join(REPO_ROOT, 'examples/provider-a-fail-first-3.json'), 'utf8'))
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  expect((await runScenario(parsed.scenario, { dataDir: dir })).ok).toBe(true)

  const engine = await createEngine({ dataDir: dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'loop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: [{ matchers: [{ type: 'event-type', value: 'booking.refused' }], steps: [{ type: 'reply', status: 422, body: 'refused' }] }] })
    await engine.receiver.rules.add(null, { name: 'teapot on demand', matchers: [{ type: 'header', name: 'x-teapot' }], steps: [{ type: 'reply', status: 418 }] })
    // Another workspace's rule for every endpoint: it never answers these endpoints, so no export of them carries it.
    await engine.receiver.rules.add(null, { name: 'payments only', matchers: [{ type: 'header', name: 'x-pay' }], steps: [{ type: 'reply', status: 503 }] }, { workspaceId: 'ws_pay' })
    const sub = await engine.putSubscription({ name: 'loop', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET, RETIRED], policy: 'github' })
    const bare = await engine.putSubscription({ name: 'bare', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'github', envelope: 'payload' })
    for (const [i, type] of ['booking.created', 'booking.refused', 'booking.created'].entries()) {
      const sent = await engine.sendEvent({ subscriptionIds: [i === 2 ? bare.id : sub.id], eventType: type, payload: { id: i, note: `ünï "${i}"` } })
      for (let w = 0; w < 500 && !sent.deliveryIds.every((id) => engine.isDeliverySettled(id)); w++) await new Promise((r) => setTimeout(r, 10))
    }
    await engine.putEndpoint({ slug: 'inbox', secrets: [INBOX_SECRET], dedupe: 'pandoktorek-body', rules: [] })
    const bodies = ['{"event_id":"a"}', '{"event_id":"a"}', Buffer.from([0xff, 0x00, 0x7b, 0x27, 0x0a]), `{"echo":"${INBOX_SECRET}"}`]
    for (let i = 0; bodies.length < CAPTURES; i++) bodies.push(`{"event_id":"n${i}"}`)
    for (const body of bodies) {
      const response = await fetch(`${engine.receiver.url}/h/inbox?token=tok_${bodies.indexOf(body)}&page=2`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: 'Bearer tok_abcdef123456' } })
      await response.arrayBuffer()
    }
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}

beforeAll(async () => {
  temp = makeTempDir('hookloop-export-engines-')
  const dir = join(temp.dir, 'folder')
  await fillFolder(dir)
  folder = await openStore(parseStoreLocation(dir), quiet)
  team = await openStore(parseStoreLocation(await postgres.freshDatabase()), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
  await copyStore(folder, team)
  const ids = async (table: string) => (await folder.engine.all<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id)
  requestIds = await ids('requests')
  deliveryIds = await ids('deliveries')
}, 180_000)
afterAll(async () => {
  await folder?.engine.close()
  await team?.engine.close()
  temp?.cleanup()
})

describe('exportSelection on both store engines', () => {
  it('the folder holds what the export must carry', async () => {
    expect(requestIds.length).toBeGreaterThan(CAPTURES)
    expect(deliveryIds.length).toBeGreaterThanOrEqual(4)
    expect(await folder.engine.get(`SELECT count(*) AS n FROM deliveries WHERE simulation_id IS NOT NULL`)).not.toEqual({ n: 0 })
    expect(await folder.engine.get(`SELECT count(*) AS n FROM requests WHERE duplicate_of IS NOT NULL`)).not.toEqual({ n: 0 })
  })

  for (const format of EXPORT_FORMATS) {
    for (const keepSecrets of [false, true]) {
      it(`${format}${keepSecrets ? ' with secrets kept' : ', redacted'}: the same bytes from a data folder and from PostgreSQL`, async () => {
        const now = Date.UTC(2026, 11, 4, 12, 0, 0)
        const progress: Record<string, Array<[number, number]>> = { folder: [], team: [] }
        const exportOf = (store: OpenedStore, name: string) =>
          exportSelection(store, { format, requestIds, deliveryIds, keepSecrets, now, version: '9.9.9', onProgress: (done, total) => progress[name]!.push([done, total]) })
        const fromFolder = await exportOf(folder, 'folder')
        const fromTeam = await exportOf(team, 'team')
        expect(fromTeam).toBe(fromFolder)
        expect(progress.team).toEqual(progress.folder)
        const total = requestIds.length + deliveryIds.length
        expect(progress.folder!.length).toBeGreaterThan(2)
        expect(progress.folder!.at(-1)).toEqual([total, total])

        // What it carries, so equal texts are not equally empty.
        // The traffic's secrets (a body echoing one, a bearer token), and in a case file the definitions' too.
        const secrets = ['tok_abcdef123456', INBOX_SECRET, ...(format === 'case' ? [SECRET, RETIRED] : [])]
        for (const secret of secrets) expect(fromTeam.includes(secret), secret).toBe(keepSecrets)
        if (format === 'har') {
          const har = JSON.parse(fromTeam) as Har
          expect(har.log.creator.version).toBe('9.9.9')
          expect(har.log.entries.some((e) => e._hookloop?.simulation_id !== undefined)).toBe(true)
          expect(har.log.entries.some((e) => e.request.postData?.encoding === 'base64')).toBe(true)
        }
        if (format === 'case') {
          const file = JSON.parse(fromTeam) as CaseFile
          expect(file.exported_at).toBe(new Date(now).toISOString())
          expect(file.requests).toHaveLength(requestIds.length)
          expect(file.deliveries).toHaveLength(deliveryIds.length)
          expect(file.setup.subscriptions.map((s) => s.name)).toEqual(expect.arrayContaining(['loop', 'bare']))
          expect(file.setup.global_rules?.map((r) => r.name)).toEqual(['teapot on demand'])
          expect(file.setup.endpoints.find((e) => e.slug === 'loop')?.rules).toHaveLength(1)
        }
      })
    }
  }

  it('names an id missing from the team store, as from the folder', async () => {
    for (const store of [folder, team]) {
      await expect(exportSelection(store, { format: 'har', requestIds: [requestIds[0]!, 999_999], now: 0 })).rejects.toThrow('no captured request with id 999999')
      await expect(exportSelection(store, { format: 'har', deliveryIds: [deliveryIds[0]!, 888_888], now: 0 })).rejects.toThrow('no delivery with id 888888')
    }
  })
})
