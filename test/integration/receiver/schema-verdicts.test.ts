import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSchemaVerdictStore } from '../../../electron/engine/store'
import { closedPullRequest, githubHeaders, withoutHeadRepo } from '../../support/github-deliveries'
import { makeTempDir } from '../../support/temp-dir'
import { COMMIT_MODES, post, send, startHarness, type Harness } from './support'

// Real GitHub deliveries (@octokit/webhooks-examples) signed and sent through a real receiver on a
// real socket and SQLite file: answered 200 at once, then held against GitHub's webhooks OpenAPI
// off the capture path, the verdict stored beside the request and told as `request.schema`. Judged
// on the thread the app and the CLI use (its script as built into out/main/: build first), and on
// the event loop (where no thread script is built).

const SECRET = 'github-secret'

function delivery(payload: unknown): string {
  const body = JSON.stringify(payload)
  return post('/h/gh', body, githubHeaders(body, SECRET))
}

const JUDGE_THREAD = resolve('out/main/schema-judge-thread.js')
const JUDGE_MODES = [
  ['on its thread', JUDGE_THREAD],
  ['on the event loop', false],
] as const

describe.each(COMMIT_MODES.flatMap(([commits, thread]) => JUDGE_MODES.map(([judged, judge]) => [`commits ${commits}, judged ${judged}`, thread, judge] as const)))('the schema verdict, %s', (_, thread, judge) => {
  let h: Harness
  afterEach(() => h?.stop())

  it('a real delivery is valid; the same without pull_request.head.repo is invalid there; both answered 200 first', async () => {
    h = await startHarness({ captureThread: thread, schemaJudgeThread: judge })
    await h.receiver.endpoints.create({ slug: 'gh', scheme: 'github', secrets: [SECRET] })
    expect((await send(h.receiver.port, delivery(closedPullRequest()))).responses[0]?.status).toBe(200)
    expect((await send(h.receiver.port, delivery(withoutHeadRepo()))).responses[0]?.status).toBe(200)
    await h.receiver.schemaVerdicts.idle()
    const [first, second] = h.receiver.requests.list().reverse()
    const verdicts = createSchemaVerdictStore(h.db)
    expect(verdicts.get(first!.id)).toMatchObject({ verdict: 'valid', schema: 'pull-request-closed', version: 'api.github.com', problems: [] })
    const invalid = verdicts.get(second!.id)
    expect(invalid).toMatchObject({ verdict: 'invalid', schema: 'pull-request-closed' })
    expect(invalid!.problems[0]).toMatchObject({ pointer: '/pull_request/head/repo', expected: 'required', got: 'missing' })
    // Told after the answer: each request's schema event follows its responded event.
    const order = h.events.filter((e) => e.type === 'request.responded' || e.type === 'request.schema').map((e) => `${e.type}:${e.requestId}`)
    expect(order.indexOf(`request.schema:${second!.id}`)).toBeGreaterThan(order.indexOf(`request.responded:${second!.id}`))
    const told = await h.waitFor('request.schema', (e) => e.requestId === second!.id)
    expect(told.verdict.problems[0]?.pointer).toBe('/pull_request/head/repo')
  })

  it('an endpoint that verifies nothing gets no verdict; one of a provider that publishes none gets "no schema" and why', async () => {
    h = await startHarness({ captureThread: thread, schemaJudgeThread: judge })
    await h.receiver.endpoints.create({ slug: 'plain' })
    await h.receiver.endpoints.create({ slug: 'tf', scheme: 'typeform', secrets: ['s'] })
    await send(h.receiver.port, post('/h/plain', '{"a":1}'))
    await send(h.receiver.port, post('/h/tf', '{"event_id":"e1","event_type":"form_response"}'))
    await h.receiver.schemaVerdicts.idle()
    const [plain, typeform] = h.receiver.requests.list().reverse()
    const verdicts = createSchemaVerdictStore(h.db)
    expect(verdicts.get(plain!.id)).toBeUndefined()
    expect(verdicts.get(typeform!.id)).toMatchObject({ verdict: 'no-schema', reason: expect.stringContaining('Typeform') })
  })

  it('off (schemaVerdicts: false): nothing is judged', async () => {
    h = await startHarness({ captureThread: thread, schemaJudgeThread: judge, schemaVerdicts: false })
    await h.receiver.endpoints.create({ slug: 'gh', scheme: 'github', secrets: [SECRET] })
    await send(h.receiver.port, delivery(closedPullRequest()))
    await h.receiver.schemaVerdicts.idle()
    expect(createSchemaVerdictStore(h.db).get(h.receiver.requests.list()[0]!.id)).toBeUndefined()
  })
})

describe('the schema judge\'s thread', () => {
  let h: Harness
  let temp: ReturnType<typeof makeTempDir> | undefined
  afterEach(async () => {
    await h?.stop()
    temp?.cleanup()
  })

  // A real thread whose script ends it (process.exit) or throws on the first request it is given.
  function crashingJudge(how: string): string {
    temp = makeTempDir('hookloop-judge-')
    const script = join(temp.dir, 'schema-judge-thread.mjs')
    writeFileSync(script, `import { parentPort } from 'node:worker_threads'\nparentPort.on('message', () => { ${how} })\n`)
    return script
  }

  it.each([
    ['stops', 'process.exit(7)', 'the schema judge stopped (exit code 7)'],
    ['throws', "throw new Error('out of memory, say')", 'the schema judge failed: out of memory, say'],
  ])('one that %s gives "no schema" and why for what it held; the next request starts a fresh one', async (_, how, reason) => {
    h = await startHarness({ schemaJudgeThread: crashingJudge(how) })
    await h.receiver.endpoints.create({ slug: 'gh', scheme: 'github', secrets: [SECRET] })
    expect((await send(h.receiver.port, delivery(closedPullRequest()))).responses[0]?.status).toBe(200)
    await h.receiver.schemaVerdicts.idle()
    expect((await send(h.receiver.port, delivery(closedPullRequest()))).responses[0]?.status).toBe(200)
    await h.receiver.schemaVerdicts.idle()
    const verdicts = createSchemaVerdictStore(h.db)
    for (const request of h.receiver.requests.list()) expect(verdicts.get(request.id)).toMatchObject({ verdict: 'no-schema', reason })
    expect(h.events.filter((e) => e.type === 'request.schema')).toHaveLength(2)
  })
})
