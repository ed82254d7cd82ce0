// API tokens against `hookloop serve --accounts` from the build, driven as a machine would: a
// WebSocket and HTTP with `Authorization: Bearer hlk_…` and no Origin. A token is admitted with
// its role; no token, a wrong, an unknown or a revoked one is 401 with no detail; a viewer's token
// changing something is refused naming the editor role; a token revoked elsewhere is refused by a
// second server on the same data folder within a second; the secret is never on a server's console.
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createAccounts, createTokens } from '../../../electron/engine/accounts'
import { createSqliteEngine, DATA_FILE_NAME, openDatabase } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'

const CLI = resolve('out/main/cli.js')
const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

interface Served {
  origin: string
  /** Everything the server printed, stdout and stderr. */
  output: () => string
}

async function startServe(dir: string): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--accounts', '--data', dir, '--admin', 'ada@example.com'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD },
  })
  cleanups.push(() => child.kill('SIGKILL'))
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const first = await new Promise<string>((done) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`
      if (/^http/.test(line)) done(line)
    })
  })
  return { origin: new URL(first).origin, output: () => output }
}

/** A data folder with an admin and these tokens, made before any server opens it. */
async function folderWithTokens(roles: ('viewer' | 'editor' | 'admin')[]): Promise<{ dir: string; secrets: string[]; ids: string[] }> {
  const { dir, cleanup } = makeTempDir()
  cleanups.push(cleanup)
  const engine = createSqliteEngine(openDatabase({ file: join(dir, DATA_FILE_NAME), notice: () => undefined }))
  const admin = await createAccounts({ engine: () => engine }).createFirstAdmin({ email: 'ada@example.com', password: PASSWORD })
  const tokens = createTokens({ engine: () => engine })
  const made = []
  for (const role of roles) made.push(await tokens.create({ name: `${role} bot`, role, by: admin.id }))
  await engine.close()
  return { dir, secrets: made.map((m) => m.secret), ids: made.map((m) => m.token.id) }
}

/** A socket as a machine opens one: no Origin, the token in Authorization. Its status when refused. */
function socket(origin: string, authorization: string | undefined): Promise<WebSocket | number> {
  return new Promise((done) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: authorization ? { authorization } : {} })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => {
        refusals.push(body)
        done(res.statusCode ?? 0)
      })
    })
    ws.on('error', () => undefined)
    cleanups.push(() => ws.readyState === WebSocket.OPEN && ws.terminate())
  })
}
const refusals: string[] = []

let ids = 0
function command(ws: WebSocket, name: string, req: unknown = {}): Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }> {
  const id = ++ids
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { t: string; id?: number; ok: boolean; error?: { code: string; message: string } }
      if (frame.t === 'res' && frame.id === id) {
        ws.off('message', onMessage)
        done(frame)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
  })
}

describe('API tokens on hookloop serve --accounts', () => {
  it('admit a token with its role on the socket and over HTTP; no token, a wrong or an unknown one is 401 with no detail', async () => {
    const { dir, secrets } = await folderWithTokens(['viewer', 'editor'])
    const [viewer = '', editor = ''] = secrets
    const served = await startServe(dir)
    const { origin } = served

    const ws = (await socket(origin, `Bearer ${editor}`)) as WebSocket
    expect(ws).toBeInstanceOf(WebSocket)
    expect((await command(ws, 'snapshot')).ok).toBe(true)
    expect((await command(ws, 'clock.set', { mode: 'virtual' })).ok).toBe(true)
    expect(await command(ws, 'history.setRetention', { days: 30, maxMb: null })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'history.setRetention needs the admin role; the token "editor bot" is an editor' } })

    const seer = (await socket(origin, `Bearer ${viewer}`)) as WebSocket
    expect((await command(seer, 'timeline.page', { offset: 0, limit: 10 })).ok).toBe(true)
    expect(await command(seer, 'clock.set', { mode: 'real' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'clock.set needs the editor role; the token "viewer bot" is a viewer' } })

    // Refused: none, wrong (one character changed), unknown, not a bearer; each 401 and told nothing more.
    const wrong = `${editor.slice(0, -1)}${editor.endsWith('A') ? 'B' : 'A'}`
    expect(await socket(origin, undefined)).toBe(401)
    refusals.length = 0
    for (const authorization of [`Bearer ${wrong}`, `Bearer hlk_${'x'.repeat(43)}`, 'Bearer nonsense', `Basic ${Buffer.from('ada@example.com:x').toString('base64')}`]) {
      expect(await socket(origin, authorization), authorization).toBe(401)
    }
    expect(new Set(refusals)).toEqual(new Set(['unauthorized\n']))

    // HTTP: a body downloaded by a viewer's token (404: there is no request 1), an upload needs an editor.
    const get = (authorization?: string) => fetch(`${origin}/bodies/requests/1`, { headers: authorization ? { authorization } : {} })
    expect((await get(`Bearer ${viewer}`)).status).toBe(404)
    const refused = await get(`Bearer ${wrong}`)
    expect([refused.status, (await refused.text()).trim(), refused.headers.get('www-authenticate')]).toEqual([401, 'unauthorized', 'Bearer'])
    expect((await get()).status).toBe(401)
    const upload = (secret: string) => fetch(`${origin}/bodies/uploads`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: 'hello' })
    const viewerUpload = await upload(viewer)
    expect([viewerUpload.status, (await viewerUpload.text()).trim()]).toEqual([403, 'uploading a body needs the editor role; the token "viewer bot" is a viewer'])
    expect((await upload(editor)).status).toBe(200)
    // The app's page is for people: a token is sent to sign in. The probes stay open.
    expect((await fetch(`${origin}/`, { redirect: 'manual', headers: { authorization: `Bearer ${editor}` } })).status).toBe(303)
    expect((await fetch(`${origin}/livez`)).status).toBe(200)
    const metrics = await (await fetch(`${origin}/metrics`)).text()

    for (const secret of secrets) {
      expect(served.output()).not.toContain(secret.slice(4))
      expect(metrics).not.toContain(secret.slice(4))
    }
  })

  it('refuse a token revoked by another process within a second, on a second server of the same data folder too, and close its sockets', async () => {
    const { dir, secrets, ids: tokenIds } = await folderWithTokens(['editor'])
    const [secret = ''] = secrets
    const one = await startServe(dir)
    const two = await startServe(dir)
    const onOne = (await socket(one.origin, `Bearer ${secret}`)) as WebSocket
    const onTwo = (await socket(two.origin, `Bearer ${secret}`)) as WebSocket
    expect((await command(onTwo, 'snapshot')).ok).toBe(true)
    const closedOne = new Promise<number>((done) => onOne.once('close', (code) => done(code)))
    const closedTwo = new Promise<number>((done) => onTwo.once('close', (code) => done(code)))

    const engine = createSqliteEngine(openDatabase({ file: join(dir, DATA_FILE_NAME), notice: () => undefined }))
    await createTokens({ engine: () => engine }).revoke(tokenIds[0] ?? '')
    await engine.close()

    // Both servers refuse it once their second is up (polled: no timing is asserted).
    for (const served of [one, two]) {
      let status: WebSocket | number = 0
      while (status !== 401) {
        status = await socket(served.origin, `Bearer ${secret}`)
        if (status instanceof WebSocket) status.terminate()
      }
    }
    // The sockets it opened are closed (the next command, or the second's check, whichever is first).
    const answer = await command(onTwo, 'snapshot').catch(() => null)
    expect([answer?.ok ?? false, await closedTwo]).toEqual([false, 4401])
    expect(await closedOne).toBe(4401)
    for (const served of [one, two]) expect(served.output()).not.toContain(secret.slice(4))
  })
})
