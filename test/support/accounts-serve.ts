// `hookloop serve --accounts` from the build, driven as a browser drives it: the sign-in and join
// forms with their CSRF tokens, a session's socket from our Origin, and commands on it. On either
// store engine: the store is in the arguments and the environment given (a team's URL and data
// key by the environment, as the docs advise).
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { randomBytes } from 'node:crypto'
import { CLI_PATH } from './run-cli'
import { makeTempDir } from './temp-dir'
import type { TestPostgres } from './postgres'

export interface AccountsServe {
  /** http://127.0.0.1:<port> */
  origin: string
  /** Everything the server printed, stdout and stderr. */
  output: () => string
  stop: () => void
}

export async function startAccountsServe(args: string[], env: Record<string, string>): Promise<AccountsServe> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--accounts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const first = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`
      if (/^http/.test(line)) done(line)
    })
    child.once('exit', (code) => fail(new Error(`serve exited (${code}): ${output}`)))
  })
  return { origin: new URL(first).origin, output: () => output, stop: () => void child.kill('SIGKILL') }
}

export const cookieOf = (res: Response, name: string): string =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1) ?? ''

/** A page's form: its CSRF token and the pre-session cookie it set. */
async function formOf(url: string): Promise<{ csrf: string; cookie: string }> {
  const page = await fetch(url)
  return { csrf: /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '', cookie: cookieOf(page, 'hookloop_csrf') }
}

const post = (url: string, origin: string, cookie: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin }, body: new URLSearchParams(form).toString() })

/** The sign-in form posted: the server's answer (a session cookie with a 303, or the page saying why not). */
export async function trySignIn(origin: string, email: string, password: string): Promise<Response> {
  const { csrf, cookie } = await formOf(`${origin}/signin`)
  return post(`${origin}/signin`, origin, cookie, { csrf, email, password })
}

/** A session's cookie (`hookloop_session=…`), or '' when the sign-in was refused. */
export const signIn = async (origin: string, email: string, password: string): Promise<string> => cookieOf(await trySignIn(origin, email, password), 'hookloop_session')

/** The join form of an invite link posted: the server's answer. */
export async function tryJoin(link: string, person: { email: string; password: string; name?: string }): Promise<Response> {
  const { origin, searchParams } = new URL(link)
  const { csrf, cookie } = await formOf(link)
  return post(`${origin}/join`, origin, cookie, { csrf, link: searchParams.get('link') ?? '', name: person.name ?? '', email: person.email, password: person.password })
}

/** The control socket opened with these headers; after its hello. */
function controlSocket(origin: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers })
    ws.once('message', () => done(ws))
    ws.once('unexpected-response', (_req, res) => fail(new Error(`the socket was refused: ${res.statusCode}`)))
  })
}

/** A session's socket, opened as the app's page opens it (our Origin, the cookie); after its hello. */
export const sessionSocket = (origin: string, cookie: string): Promise<WebSocket> => controlSocket(origin, { origin, cookie })

/** An API token's socket, as a script opens it (a bearer token, no Origin); after its hello. */
export const tokenSocket = (origin: string, secret: string): Promise<WebSocket> => controlSocket(origin, { authorization: `Bearer ${secret}` })

export type CommandFrame = { ok: boolean; res?: any; error?: { code: string; message: string } } // eslint-disable-line @typescript-eslint/no-explicit-any
let ids = 0
export function command(ws: WebSocket, name: string, req: unknown = {}): Promise<CommandFrame> {
  const id = ++ids
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as CommandFrame & { t: string; id?: number }
      if (frame.t !== 'res' || frame.id !== id) return
      ws.off('message', onMessage)
      done(frame)
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
  })
}

/**
 * The two stores a served Hookloop keeps, each as `serve` is given it: a data folder in the
 * arguments; a team's URL and data key by the environment. A folder's removal goes on `cleanups`.
 */
export function servedStores(postgres: Pick<TestPostgres, 'freshDatabase'>, cleanups: (() => void)[]): Record<string, () => Promise<{ args: string[]; env: Record<string, string> }>> {
  return {
    'a data folder': async () => {
      const { dir, cleanup } = makeTempDir()
      cleanups.push(cleanup)
      return { args: ['--data', dir], env: {} }
    },
    "a team's PostgreSQL": async () => ({ args: [], env: { HOOKLOOP_STORE: await postgres.freshDatabase(), HOOKLOOP_SECRET_KEY: randomBytes(32).toString('base64') } }),
  }
}

/**
 * A served Hookloop with accounts on a store of servedStores(), ada@example.com its first admin
 * with `password`, and `open` for session sockets; the server and every socket opened are closed
 * by `cleanups`.
 */
export async function servedWithAdmin(storeOf: () => Promise<{ args: string[]; env: Record<string, string> }>, password: string, cleanups: (() => void)[]) {
  const store = await storeOf()
  const serve = await startAccountsServe([...store.args, '--admin', 'ada@example.com'], { ...store.env, HOOKLOOP_ADMIN_PASSWORD: password })
  cleanups.push(serve.stop)
  const sockets: WebSocket[] = []
  cleanups.push(() => sockets.forEach((ws) => ws.terminate()))
  const open = async (cookie: string) => {
    const ws = await sessionSocket(serve.origin, cookie)
    sockets.push(ws)
    return ws
  }
  return { store, serve, open, sockets }
}
