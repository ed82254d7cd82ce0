// `hookloop mcp --store postgres://…` from the built CLI, driven by the SDK's client over stdio:
// on a team store copied from a data folder (test/support/team-store-seed.ts) its read tools
// answer as they do on the folder, it refuses to change the team's rules saying where they are
// changed, and without the team's data key it says how to give it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { seedTeamStore, type TeamStoreSeed } from '../../support/team-store-seed'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'
import { startMcp, type McpSession } from './support'

const postgres = usePostgres()
const temp = makeTempDir('hookloop-team-mcp-')
const sessions: McpSession[] = []
let seed: TeamStoreSeed
let dataDir = ''
let teamUrl = ''
let keyFile = ''

beforeAll(async () => {
  seed = await seedTeamStore(temp.dir, () => postgres.freshDatabase())
  ;({ dataDir, teamUrl, keyFile } = seed)
  // The servers open the stores themselves.
  await seed.close()
}, 120_000)

afterAll(async () => {
  for (const s of sessions) await s.close()
  temp.cleanup()
})

describe('hookloop mcp --store on a team PostgreSQL', () => {
  async function mcp(store: string): Promise<McpSession> {
    process.env.HOOKLOOP_SECRET_KEY_FILE = keyFile
    const session = await startMcp(['--store', store, '--receiver-url', 'http://127.0.0.1:7780'])
    sessions.push(session)
    return session
  }

  it('answers list_rows, show_request, explain_signature, show_delivery and list_endpoints as from the data folder it was copied from', async () => {
    const [folder, team] = [await mcp(dataDir), await mcp(teamUrl)]
    // The rows; the totals from the counters are the test above's.
    for (const args of [{}, { endpoint: 'orders' }, { status: 'received' }, { search: 'evt_team' }]) {
      expect((await team.json<{ rows: unknown[] }>('list_rows', args)).rows).toEqual((await folder.json<{ rows: unknown[] }>('list_rows', args)).rows)
    }
    expect(await team.json('list_rows', { search: 'evt_team' })).toEqual(await folder.json('list_rows', { search: 'evt_team' }))
    const { rows } = await folder.json<{ rows: { requestIds?: number[] }[] }>('list_rows', { status: 'received' })
    const ids = rows.flatMap((r) => r.requestIds ?? [])
    expect(ids.length).toBeGreaterThan(2)
    for (const id of ids) {
      expect(await team.json('show_request', { id })).toEqual(await folder.json('show_request', { id }))
      expect(await team.call('explain_signature', { requestId: id })).toEqual(await folder.call('explain_signature', { requestId: id }))
    }
    const delivered = (await folder.json<{ rows: { deliveryId?: number }[] }>('list_rows', { status: ['succeeded', 'failed', 'retrying', 'pending'] })).rows
    expect(delivered.length).toBeGreaterThan(0)
    for (const { deliveryId } of delivered) expect(await team.json('show_delivery', { id: deliveryId })).toEqual(await folder.json('show_delivery', { id: deliveryId }))
    // The same endpoints and rules; only where the store is differs.
    const { dataDir: teamWhere, ...teamEndpoints } = await team.json<{ dataDir: string }>('list_endpoints')
    const { dataDir: folderWhere, ...folderEndpoints } = await folder.json<{ dataDir: string }>('list_endpoints')
    expect(teamEndpoints).toEqual(folderEndpoints)
    expect([teamWhere, folderWhere]).toEqual([expect.stringMatching(/^postgres:\/\//), dataDir])
    expect(team.stderr).toContain('serving postgres://')
  })

  it('reads the store HOOKLOOP_STORE names when no flag does', async () => {
    process.env.HOOKLOOP_SECRET_KEY_FILE = keyFile
    process.env.HOOKLOOP_STORE = teamUrl
    let session: McpSession
    try {
      session = await startMcp([])
    } finally {
      delete process.env.HOOKLOOP_STORE
    }
    sessions.push(session)
    const folder = await mcp(dataDir)
    expect(session.stderr).toMatch(/serving postgres:\/\//)
    expect((await session.json<{ rows: unknown[] }>('list_rows')).rows).toEqual((await folder.json<{ rows: unknown[] }>('list_rows')).rows)
  })

  it('refuses to change the team’s rules, saying they change through hookloop serve', async () => {
    const team = await mcp(teamUrl).then(async (s) => {
      await s.close()
      sessions.pop()
      const allowed = await startMcp(['--store', teamUrl, '--allow-changes'])
      sessions.push(allowed)
      return allowed
    })
    const added = await team.call('add_fault_rule', { endpoint: 'orders', preset: 'fail-first' })
    expect(added.isError).toBe(true)
    expect(added.text).toMatch(/^add_fault_rule: add_fault_rule changes a team's store only through `hookloop serve`/)
    const endpoints = await team.json<{ endpoints: { slug: string; rules: unknown[] }[] }>('list_endpoints')
    expect(endpoints.endpoints.find((e) => e.slug === 'orders')?.rules).toHaveLength(1)
  })

  it('without the team’s data key: one line on stderr saying how to give it, exit 1, nothing on stdout', async () => {
    const env = { ...process.env }
    delete env.HOOKLOOP_SECRET_KEY_FILE
    delete env.HOOKLOOP_SECRET_KEY
    const run = await runCli(['mcp', '--store', teamUrl], { env })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^hookloop mcp: cannot open postgres:\/\/[^\n]*: a PostgreSQL store needs the data key [^\n]*HOOKLOOP_SECRET_KEY_FILE[^\n]*\n$/)
    expect(run.stderr).not.toContain(new URL(teamUrl).password || '\u0000')
  })
})
