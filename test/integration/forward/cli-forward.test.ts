// `hookloop listen --forward-to` as a real process in front of a real app on loopback.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { post, startApp, type App } from './apps'

describe('hookloop listen --forward-to', () => {
  let temp: ReturnType<typeof makeTempDir>
  let app: App
  beforeEach(() => {
    temp = makeTempDir('hookloop-forward-')
  })
  afterEach(async () => {
    await app?.close()
    temp.cleanup()
  })

  it('prints the target at start, forwards to the app, logs both legs and keeps them on disk', async () => {
    app = await startApp((req, res) => res.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${req.url}`))
    const data = join(temp.dir, 'data')
    const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', '--data', data, '--forward-to', `${app.url}/webhooks`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
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
    await waitForOutput((out) => out.includes('Press Ctrl-C'))
    const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1])
    expect(stdout).toMatch(new RegExp(`/h/default .*forward-to=${app.url}/webhooks`))

    const answer = await post(`http://127.0.0.1:${port}/h/default/stripe`, '{"id":"evt_1"}')
    expect(answer).toMatchObject({ status: 201 })
    if ('error' in answer) throw new Error(answer.error)
    expect(answer.body.toString()).toBe('got /webhooks/stripe')
    await waitForOutput((out) => out.includes('status=201') && out.includes('your app answered 201'))
    expect(stdout).toMatch(/-> POST \/webhooks\/stripe {2}forward {2}your app answered 201 in \d+ ms {2}\(request \d+\)/)

    child.kill('SIGINT')
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

  it('a target that is not http(s) is a usage error naming --forward-to', async () => {
    const result = await runCli(['listen', '--port', '0', '--data', join(temp.dir, 'd'), '--forward-to', 'ftp://127.0.0.1/x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--forward-to: a forward target must be http:\/\/ or https:\/\//)
  })
})
