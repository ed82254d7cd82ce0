// `hookloop requests --status schema-invalid` on the built CLI, over a data folder a real engine
// filled with two real GitHub deliveries (@octokit/webhooks-examples), one missing a required field:
// the table says where, `--json` carries the verdict, and the filter keeps only the invalid one.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import type { RequestListRow } from '../../../electron/engine/store/list-reads'
import { closedPullRequest, githubHeaders, withoutHeadRepo } from '../../support/github-deliveries'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SECRET = 'github-secret'

let temp: ReturnType<typeof makeTempDir>
let dir: string

beforeAll(async () => {
  temp = makeTempDir('hookloop-requests-schema-')
  dir = join(temp.dir, 'data')
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'gh', scheme: 'github', secrets: [SECRET] })
    for (const payload of [closedPullRequest(), withoutHeadRepo()]) {
      const body = JSON.stringify(payload)
      const response = await fetch(engine.receiver.endpointUrl('gh'), { method: 'POST', headers: githubHeaders(body, SECRET), body })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}, 60_000)
afterAll(() => temp.cleanup())

describe('hookloop requests and the schema verdict', () => {
  it('--status schema-invalid keeps the delivery missing a required field; --json says where and what', async () => {
    const result = await runCli(['requests', '--data', dir, '--status', 'schema-invalid', '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const rows = (JSON.parse(result.stdout) as { requests: RequestListRow[] }).requests
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ verdict: 'valid', schemaVerdict: 'invalid', schemaPointer: '/pull_request/head/repo', schemaExpected: 'required' })
    const valid = JSON.parse((await runCli(['requests', '--data', dir, '--status', 'schema-valid', '--json'])).stdout) as { requests: RequestListRow[] }
    expect(valid.requests.map((r) => r.schemaVerdict)).toEqual(['valid'])
  })

  it('the table says it beside the signature verdict', async () => {
    const result = await runCli(['requests', '--data', dir])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('schema ✗ /pull_request/head/repo: required')
    expect(result.stdout).toContain('schema ✓')
  })
})
