// `--server URL` and `--token T` of the commands that read a served Hookloop (`hookloop serve
// --accounts`) instead of a store: its control socket at URL/control, admitted by an API token
// (docs/team.md, "Tokens") sent as `Authorization: Bearer`, never in the URL. The token comes from
// $HOOKLOOP_TOKEN rather than --token where others can read the command line (ps, CI logs).
import WebSocket from 'ws'
import { CONTROL_PATH, type CommandName, type CommandRequest, type CommandResponse } from '../../shared/contract'
import { UsageError } from './usage-error'

export const SERVER_ENV = 'HOOKLOOP_SERVER'
export const TOKEN_ENV = 'HOOKLOOP_TOKEN'

export const SERVER_OPTIONS = {
  server: { type: 'string', value: 'URL', env: SERVER_ENV, help: 'read a served Hookloop (hookloop serve --accounts) at URL instead of a store, with an API token' },
  token: { type: 'string', value: 'T', env: TOKEN_ENV, help: `with --server: the API token (hlk_…); prefer $${TOKEN_ENV}, which no other user can read` },
} as const

/** A failure on the server's side, said in one line: exit 1 (a usage error is exit 2). */
export class ServerError extends Error {
  constructor(
    message: string,
    /** The command's error code, when the server answered one. */
    readonly code?: string,
  ) {
    super(message)
  }
}

export interface ServerClient {
  /** The server's address, for messages: its origin, never the token. */
  readonly where: string
  call<C extends CommandName>(name: C, req: CommandRequest<C>): Promise<CommandResponse<C>>
  close(): void
}

/** The server a command names, or undefined when it names none (it reads a store). */
export function serverArg(
  command: string,
  args: readonly string[],
  values: { server?: string | undefined; token?: string | undefined; data?: string | undefined; store?: string | undefined },
): { url: URL; token: string } | undefined {
  const given = (option: string) => args.some((arg) => arg === `--${option}` || arg.startsWith(`--${option}=`))
  // --data or --store given wins over $HOOKLOOP_SERVER, as an option wins over a variable.
  if (values.server === undefined || (!given('server') && (values.data !== undefined || values.store !== undefined))) {
    // $HOOKLOOP_TOKEN alone is no mistake (a CI job sets it for every step); --token alone is.
    if (given('token')) throw new UsageError(`${command}: --token is for --server URL`)
    return undefined
  }
  if (values.data !== undefined || values.store !== undefined) throw new UsageError(`${command}: give --server or --${values.data !== undefined ? 'data' : 'store'}, not both`)
  let url: URL
  try {
    url = new URL(values.server)
  } catch {
    throw new UsageError(`${command}: --server must be the address of a served Hookloop, such as https://hookloop.example.com, got "${values.server}"`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${command}: --server must be an http(s) address, got "${values.server}"`)
  if (url.username || url.password) throw new UsageError(`${command}: --server carries no user or password: the API token goes in $${TOKEN_ENV}`)
  const token = values.token?.trim()
  if (!token) throw new UsageError(`${command}: --server ${url.origin} needs an API token: $${TOKEN_ENV} (or --token); an admin makes one with \`hookloop token create\` or in the app's Tokens panel`)
  return { url, token }
}

/** Opens the server's control socket with the token; a refusal is a ServerError that says no more than the server did. */
export function connectServer(url: URL, token: string): Promise<ServerClient> {
  const where = url.origin
  const socketUrl = new URL(CONTROL_PATH, url)
  socketUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: 15_000 })
    const pending = new Map<number, { done: (res: unknown) => void; fail: (error: Error) => void }>()
    let nextId = 0
    let opened = false
    const failAll = (error: Error) => {
      for (const waiting of pending.values()) waiting.fail(error)
      pending.clear()
    }
    ws.once('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0
      res.resume()
      const why =
        status === 401
          ? `${where} refused the API token (401): check $${TOKEN_ENV}; a revoked token is refused`
          : status === 421
            ? `${where} answers only to its own address (421): use the address it is served at (its --public-url)`
            : `${where} refused the connection (${status})`
      reject(new ServerError(why))
      ws.terminate()
    })
    ws.once('error', (error) => {
      const failure = new ServerError(`could not reach ${where}: ${error.message}`)
      if (!opened) reject(failure)
      else failAll(failure)
    })
    ws.on('close', (code) => failAll(new ServerError(code === 4401 ? `${where} no longer admits the API token (revoked)` : `${where} closed the connection (${code})`)))
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { t: string; id?: number; ok?: boolean; res?: unknown; error?: { code: string; message: string } }
      if (frame.t === 'hello' && !opened) {
        opened = true
        resolve(client)
        return
      }
      if (frame.t !== 'res' || frame.id === undefined) return
      const waiting = pending.get(frame.id)
      if (!waiting) return
      pending.delete(frame.id)
      if (frame.ok) waiting.done(frame.res)
      else waiting.fail(new ServerError(frame.error?.message ?? 'the command failed', frame.error?.code))
    })
    const client: ServerClient = {
      where,
      call(name, req) {
        const id = ++nextId
        return new Promise((done, fail) => {
          pending.set(id, { done: done as (res: unknown) => void, fail })
          ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
        })
      },
      close() {
        ws.close()
      },
    }
  })
}
