// `hookloop listen --forward-to` as a real process in front of a real app on loopback.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { post, startApp, type App } from '../../support/forward-apps'

describe('hookloop listen --forward-to', () => {
  const temp = useTempDir('hookloop-forward-')
  let app: App
  afterEach(() => app?.close())

  it('prints the target at start, forwards to the app, logs both legs and keeps them on disk', async () => {
    app = await startApp((req, res) => res.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${req.url}`))
    const data = join(temp.dir, 'data')
    const cli = await startListen(['--data', data, '--forward-to', `${app.url}/webhooks`])
    const { port, exited } = cli
    expect(cli.stdout).toMatch(new RegExp(`/h/default .*forward-to=${app.url}/webhooks`))

    const answer = await post(`http://127.0.0.1:${port}/h/default/stripe`, '{"id":"evt_1"}')
    expect(answer).toMatchObject({ status: 201 })
    if ('error' in answer) throw new Error(answer.error)
    expect(answer.body.toString()).toBe('got /webhooks/stripe')
    await cli.waitForOutput((out) => out.includes('status=201') && out.includes('your app answered 201'))
    expect(cli.stdout).toMatch(/-> POST \/webhooks\/stripe {2}forward {2}your app answered 201 in \d+ ms {2}\(request \d+\)/)

    cli.kill()
    expect(await exited).toBe(0)
    const db = new BetterSqlite3(join(data, 'hookloop.db'), { readonly: true })
    try {
      expect(db.prepare('SELECT kind, request_url, response_status, outcome FROM forward_legs').all()).toEqual([
        { kind: 'forward', request_url: `${app.url}/webhooks/stripe`, response_status: 201, outcome: 'answered' },
      ])
      expect(db.prepare('SELECT response_status FROM requests').pluck().all()).toEqual([201])
    } finally {
      db.close()
    }
  })

  it("the banner names a forward rule's target, not only the rule's name", async () => {
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'shop', rules: [{ preset: 'fail-then-forward', n: 2, url: 'http://127.0.0.1:3999/webhooks' }] }] }))
    const cli = await startListen(['--data', join(temp.dir, 'data'), '--config', config])
    expect(cli.stdout).toMatch(/\/h\/shop .*rules=fail the first 2, then forward -> http:\/\/127\.0\.0\.1:3999\/webhooks/)
    cli.kill()
    expect(await cli.exited).toBe(0)
  })

  it('a target that is not http(s) is a usage error naming --forward-to', async () => {
    const result = await runCli(['listen', '--port', '0', '--data', join(temp.dir, 'd'), '--forward-to', 'ftp://127.0.0.1/x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--forward-to: a forward target must be http:\/\/ or https:\/\//)
  })
})
