// `hookloop listen` as a real process: config file, log lines, SIGINT → exit 0 with every row on disk.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { post, send } from './helpers'

describe('hookloop listen', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    temp = makeTempDir('hookloop-listen-')
  })
  afterEach(() => temp.cleanup())

  it('serves the config, logs one line per request, and stops cleanly on SIGINT with the rows on disk', async () => {
    const config = join(temp.dir, 'listen.json')
    writeFileSync(
      config,
      JSON.stringify({
        endpoints: [
          { slug: 'provider-a', dedupe: 'pandoktorek', rules: [{ preset: 'fail-first', n: 1 }] },
          { slug: 'provider-b', dedupe: 'csku', rules: [{ preset: 'always-410' }] },
        ],
      }),
    )
    const data = join(temp.dir, 'data')
    const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', '--config', config, '--data', data], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // Resolves once stdout satisfies the predicate; rejects if the process ends first.
    const waitForOutput = (predicate: (out: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (predicate(stdout)) {
            child.stdout.off('data', check)
            resolve()
          }
        }
        child.stdout.on('data', check)
        void exited.then(() => reject(new Error(`listen exited early: ${stderr}`)))
        check()
      })
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const lines = (count: number) => waitForOutput((out) => out.split('\n').filter((l) => l.includes('status=')).length >= count)
    await waitForOutput((out) => out.includes('Press Ctrl-C'))
    const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1])
    expect(stdout).toContain(`http://127.0.0.1:${port}/h/provider-a`)
    expect(stdout).toContain(`http://127.0.0.1:${port}/h/provider-b`)

    const a = post('/h/provider-a', '{"event_id":"e-1"}', { 'X-Pandoktorek-Event-Id': 'e-1' })
    expect((await send(port, a)).responses[0]?.status).toBe(503)
    expect((await send(port, a)).responses[0]?.status).toBe(200)
    expect((await send(port, post('/h/provider-b', '{"event":"message.sent","message":{"id":"7"}}'))).responses[0]?.status).toBe(410)
    await lines(3)
    const log = stdout.split('\n').filter((l) => l.includes('status='))
    expect(log[0]).toMatch(/provider-a {2}POST \/h\/provider-a {2}key=e-1 {2}dup=- {2}sig=- {2}fault=reply 503 {2}status=503/)
    expect(log[1]).toMatch(/key=e-1 {2}dup=#2 .*status=200/)
    expect(log[2]).toMatch(/provider-b .*key=message\.sent_7 .*status=410/)

    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(stdout).toContain('Stopped. 3 requests')
    const db = new BetterSqlite3(join(data, 'hookloop.db'), { readonly: true })
    try {
      const rows = db.prepare('SELECT dedupe_key, duplicate_number, response_status FROM requests ORDER BY id').all()
      expect(rows).toEqual([
        { dedupe_key: 'e-1', duplicate_number: 1, response_status: 503 },
        { dedupe_key: 'e-1', duplicate_number: 2, response_status: 200 },
        { dedupe_key: 'message.sent_7', duplicate_number: 1, response_status: 410 },
      ])
    } finally {
      db.close()
    }
  })

  it('a bad config file exits 2 naming the JSON path at fault', async () => {
    const config = join(temp.dir, 'bad.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'ok' }, { slug: 'x', rules: [{ steps: [{ type: 'teleport' }] }] }] }))
    const result = await runCli(['listen', '--port', '0', '--config', config, '--data', temp.dir])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('endpoints[1].rules[0].steps[0].type: unknown type "teleport"')
  })

  it('invalid JSON and unknown options are usage errors (exit 2)', async () => {
    const config = join(temp.dir, 'broken.json')
    writeFileSync(config, '{"endpoints": [')
    const broken = await runCli(['listen', '--config', config, '--data', temp.dir])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain('is not valid JSON')
    const unknown = await runCli(['listen', '--tunnel-please'])
    expect(unknown.code).toBe(2)
  })
})
