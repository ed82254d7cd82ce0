// The schema verdict of a request at an endpoint `hookloop contract add` made: the built CLI adds
// the shop spec's endpoints to a data folder, a real receiver on that folder's SQLite file captures
// real HTTP requests at them, and the verdicts read back from the store (and through `hookloop
// requests --status schema-invalid`) hold each body against its operation's schema in the spec,
// named by the spec's title and version. A spec changed or gone since gives "no schema" and says
// so. Judged on the judge's thread as built into out/main/ (build first) and on the event loop.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createContractSchemas } from '../../../electron/engine/contracts'
import { createReceiver, type Receiver } from '../../../electron/engine/receiver'
import { createSchemaVerdictStore, DATA_FILE_NAME, openDatabase } from '../../../electron/engine/store'
import type { RequestListRow } from '../../../electron/engine/store'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
const JUDGE_MODES = [
  ['on its thread', resolve(REPO_ROOT, 'out/main/schema-judge-thread.js')],
  ['on the event loop', false],
] as const

const order = (data: Record<string, unknown> = {}) => ({
  type: 'order.created',
  id: 'evt_1',
  data: { order_id: 'ord_1', status: 'paid', total: 10.5, currency: 'EUR', customer: { email: 'ada@example.com' }, ...data },
})

describe.each(JUDGE_MODES)('a contract endpoint\'s schema verdict, judged %s', (_, judgeThread) => {
  let temp: ReturnType<typeof makeTempDir> | undefined
  let receiver: Receiver | undefined
  let db: ReturnType<typeof openDatabase> | undefined
  afterEach(async () => {
    await receiver?.close()
    db?.close()
    temp?.cleanup()
    receiver = db = temp = undefined
  })

  it('holds each body against its operation in the spec; a spec changed or gone since is "no schema", saying so', async () => {
    temp = makeTempDir('hookloop-contract-verdict-')
    const spec = join(temp.dir, 'shop.yaml')
    copyFileSync(SHOP, spec)
    const dir = join(temp.dir, 'data')
    const added = await runCli(['contract', 'add', spec, '--data', dir])
    expect(added.code).toBe(0)

    db = openDatabase({ file: join(dir, DATA_FILE_NAME) })
    receiver = await createReceiver({ db, clock: createRealClock(), host: '127.0.0.1', port: 0, keepProcessAlive: false, schemaJudgeThread: judgeThread, contractSchemas: createContractSchemas() })
    const at = receiver
    const post = async (slug: string, body: unknown): Promise<number> => {
      const response = await fetch(at.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      await response.arrayBuffer()
      at.requests.flush()
      return at.requests.list()[0]!.id
    }
    const verdicts = createSchemaVerdictStore(db)
    const verdictOf = async (id: number) => {
      await at.schemaVerdicts.idle()
      return verdicts.get(id)
    }

    const valid = await post('order-created', order())
    const invalid = await post('order-created', order({ status: 'lost', customer: {} }))
    const cancelled = await post('order-cancelled', { type: 'order.cancelled', id: 'evt_2', data: { order_id: 'ord_1', reason: 'fraud' } })
    const source = 'Shop webhooks 1.2.0 (OpenAPI 3.1.0)'
    expect(await verdictOf(valid)).toMatchObject({ verdict: 'valid', source, version: 'shop.yaml', schema: 'order.created', problems: [] })
    const bad = await verdictOf(invalid)
    expect(bad).toMatchObject({ verdict: 'invalid', source, schema: 'order.created' })
    expect(bad!.problems.map((p) => [p.pointer, p.expected])).toEqual(expect.arrayContaining([['/data/customer/email', 'required'], ['/data/status', expect.stringContaining('pending')]]))
    expect(await verdictOf(cancelled)).toMatchObject({ verdict: 'valid', schema: 'order.cancelled' })

    // The spec's content changes: the endpoint was made from another one.
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('version: 1.2.0', 'version: 1.3.0'))
    const afterChange = await verdictOf(await post('order-created', order()))
    expect(afterChange).toMatchObject({ verdict: 'no-schema', source: 'Shop webhooks 1.3.0 (OpenAPI 3.1.0)', schema: 'order.created' })
    expect(afterChange!.reason).toContain('changed since this endpoint was made')

    // The spec is gone: said, and judging goes on.
    rmSync(spec)
    const afterRemove = await verdictOf(await post('order-created', order()))
    expect(afterRemove).toMatchObject({ verdict: 'no-schema', schema: 'order.created' })
    expect(afterRemove!.reason).toContain(`the spec ${spec} this endpoint was made from cannot be read (ENOENT)`)

    // `contract add` again on the spec as it is now: judged against it.
    writeFileSync(spec, readFileSync(SHOP, 'utf8').replace('version: 1.2.0', 'version: 1.3.0'))
    expect((await runCli(['contract', 'add', spec, '--data', dir])).stdout).toContain('updated')
    await receiver.reloadDefinitions()
    expect(await verdictOf(await post('order-created', order()))).toMatchObject({ verdict: 'valid', source: 'Shop webhooks 1.3.0 (OpenAPI 3.1.0)' })

    await receiver.close()
    receiver = undefined
    db.close()
    db = undefined
    const listed = await runCli(['requests', '--data', dir, '--status', 'schema-invalid', '--json'])
    expect(listed.code).toBe(0)
    const rows = (JSON.parse(listed.stdout) as { requests: RequestListRow[] }).requests
    expect(rows.map((r) => [r.id, r.schemaVerdict])).toEqual([[invalid, 'invalid']])
  }, 60_000)
})
