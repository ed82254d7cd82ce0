// `hookloop listen` as a real process: config file, log lines, SIGINT → exit 0 with every row on disk.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { post, send } from '../receiver/support'

describe('hookloop listen', () => {
  const temp = useTempDir('hookloop-listen-')

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
    const cli = await startListen(['--config', config, '--data', data])
    const lines = (count: number) => cli.waitForOutput((out) => out.split('\n').filter((l) => l.includes('status=')).length >= count)
    const { port, exited } = cli
    expect(cli.stdout).toContain(`http://127.0.0.1:${port}/h/provider-a`)
    expect(cli.stdout).toContain(`http://127.0.0.1:${port}/h/provider-b`)

    const a = post('/h/provider-a', '{"event_id":"e-1"}', { 'X-Pandoktorek-Event-Id': 'e-1' })
    expect((await send(port, a)).responses[0]?.status).toBe(503)
    expect((await send(port, a)).responses[0]?.status).toBe(200)
    expect((await send(port, post('/h/provider-b', '{"event":"message.sent","message":{"id":"7"}}'))).responses[0]?.status).toBe(410)
    await lines(3)
    const log = cli.stdout.split('\n').filter((l) => l.includes('status='))
    expect(log[0]).toMatch(/provider-a {2}POST \/h\/provider-a {2}key=e-1 {2}dup=- {2}sig=- {2}fault=reply 503 {2}status=503/)
    expect(log[1]).toMatch(/key=e-1 {2}dup=#2 .*status=200/)
    expect(log[2]).toMatch(/provider-b .*key=message\.sent_7 .*status=410/)

    cli.kill()
    expect(await exited).toBe(0)
    expect(cli.stdout).toContain('Stopped. 3 requests')
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
