// A captured request's schema verdict travels in every export that carries verdicts: the HAR
// entry's _hookloop.schema and the case file's request field, with the failing pointer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSelection } from '../../../electron/engine/exports'
import { storeOfDatabase } from '../../../electron/engine/store'
import type { CaseFile, Har } from '../../../shared/contract'
import { closedPullRequest, githubHeaders, withoutHeadRepo } from '../../support/github-deliveries'
import { newEngine } from './support'

const SECRET = 'github-secret'
let fixture: Awaited<ReturnType<typeof newEngine>>
let requestIds: number[]

beforeAll(async () => {
  fixture = await newEngine()
  const { engine } = fixture
  await engine.putEndpoint({ slug: 'gh', scheme: 'github', secrets: [SECRET] })
  for (const payload of [closedPullRequest(), withoutHeadRepo()]) {
    const body = JSON.stringify(payload)
    await (await fetch(engine.receiver.endpointUrl('gh'), { method: 'POST', headers: githubHeaders(body, SECRET), body })).arrayBuffer()
  }
  await engine.quiesce()
  requestIds = engine.receiver.requests.list().map((r) => r.id).reverse()
})
afterAll(() => fixture?.close())

const exportAs = (format: 'har' | 'case') => exportSelection(storeOfDatabase(fixture.engine.db), { format, requestIds, keepSecrets: false, now: Date.now(), version: '0.1.0' })

describe('exports and the schema verdict', () => {
  it('HAR: each entry\u2019s _hookloop.schema', async () => {
    const har = JSON.parse(await exportAs('har')) as Har
    const [valid, invalid] = har.log.entries
    expect(valid!._hookloop?.schema).toMatchObject({ verdict: 'valid', schema: 'pull-request-closed' })
    expect(invalid!._hookloop?.schema).toMatchObject({ verdict: 'invalid', problems: [{ pointer: '/pull_request/head/repo', expected: 'required', got: 'missing' }] })
  })

  it('case file: each request\u2019s schema', async () => {
    const file = JSON.parse(await exportAs('case')) as CaseFile
    expect(file.requests.map((r) => r.schema?.verdict)).toEqual(['valid', 'invalid'])
    expect(file.requests[1]!.schema!.problems[0]!.pointer).toBe('/pull_request/head/repo')
  })
})
