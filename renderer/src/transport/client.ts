// The renderer's side of shared/contract/messages.ts: typed command calls over the control WebSocket, and
// pushed event batches handed on as they arrive (the stores apply them once per frame).
import type { HookloopBridge } from '../../../shared/bridge'
import { BODY_UPLOAD_PATH, CONTROL_PATH, requestBodyPath, SIGNED_OUT_CLOSE_CODE, TOKEN_HEADER, type UploadedBody, type CommandName, type CommandRequest, type CommandResponse, type ErrorCode, type EventMessage, type ServerFrame } from '../../../shared/contract'
import { goToSignIn, signedIn } from './account'

export type ConnectionState = { state: 'connecting' } | { state: 'open' } | { state: 'closed'; reason: string; retryInMs: number }

export interface EngineClient {
  call<C extends CommandName>(name: C, req: CommandRequest<C>): Promise<CommandResponse<C>>
  onEvents(listener: (batch: EventMessage[]) => void): () => void
  onConnection(listener: (state: ConnectionState) => void): () => void
  /** A captured request's whole stored body, over HTTP (a frame carries only its start). */
  downloadRequestBody(requestId: number): Promise<Blob>
  /** Uploads a new body (a file's bytes) for `request.resend`'s `bodyUpload`. */
  uploadBody(bytes: Blob): Promise<UploadedBody>
  close(): void
}

export class CommandError extends Error {
  override readonly name = 'CommandError'
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export interface EngineAddress {
  /** ws://127.0.0.1:<port> */
  socketOrigin: string
  token: string
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void }

export function createEngineClient(address: EngineAddress, WebSocketImpl: typeof WebSocket = WebSocket): EngineClient {
  const eventListeners = new Set<(batch: EventMessage[]) => void>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  const pending = new Map<number, Pending>()
  const queued: string[] = []
  let nextId = 1
  let socket: WebSocket | null = null
  let closed = false
  let failures = 0

  function setState(state: ConnectionState): void {
    for (const listener of connectionListeners) listener(state)
  }

  function open(): void {
    setState({ state: 'connecting' })
    const ws = new WebSocketImpl(`${address.socketOrigin}${CONTROL_PATH}?token=${encodeURIComponent(address.token)}`)
    socket = ws
    ws.onopen = () => {
      failures = 0
      setState({ state: 'open' })
      for (const frame of queued.splice(0)) ws.send(frame)
    }
    ws.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame
      switch (frame.t) {
        case 'res': {
          const waiting = pending.get(frame.id)
          if (!waiting) return
          pending.delete(frame.id)
          if (frame.ok) waiting.resolve(frame.res)
          else waiting.reject(new CommandError(frame.error.code, frame.error.message))
          return
        }
        case 'events':
          for (const listener of eventListeners) listener(frame.batch)
          return
        case 'hello':
          return
        default: {
          const never: never = frame
          return never
        }
      }
    }
    ws.onclose = (event) => {
      socket = null
      for (const waiting of pending.values()) waiting.reject(new CommandError('unavailable', 'the connection to the engine closed'))
      pending.clear()
      if (closed) return
      // The session ended (signed out elsewhere, the account disabled): back to the sign-in page.
      if (event.code === SIGNED_OUT_CLOSE_CODE && typeof window !== 'undefined') {
        goToSignIn()
        return
      }
      failures++
      // Back off up to 5 s; the engine may be restarting.
      const retryInMs = Math.min(5000, 250 * 2 ** Math.min(failures, 5))
      setState({ state: 'closed', reason: event.reason || (event.code === 1006 ? 'the engine is not answering' : `closed (${event.code})`), retryInMs })
      setTimeout(() => {
        if (!closed) open()
      }, retryInMs)
    }
  }

  open()

  // The same engine's HTTP side: ws://host → http://host, the token in a header.
  async function http(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${address.socketOrigin.replace(/^ws/, 'http')}${path}`, { ...init, headers: { [TOKEN_HEADER]: address.token } })
    if (!response.ok) throw new Error((await response.text()).trim() || `the engine answered ${response.status}`)
    return response
  }

  return {
    call(name, req) {
      const id = nextId++
      const frame = JSON.stringify({ t: 'cmd', id, name, req })
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
        if (socket && socket.readyState === WebSocketImpl.OPEN) socket.send(frame)
        else queued.push(frame)
      })
    },
    onEvents(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    onConnection(listener) {
      connectionListeners.add(listener)
      return () => connectionListeners.delete(listener)
    },
    async downloadRequestBody(requestId) {
      return (await http(requestBodyPath(requestId))).blob()
    },
    async uploadBody(bytes) {
      return (await (await http(BODY_UPLOAD_PATH, { method: 'POST', body: bytes })).json()) as UploadedBody
    },
    close() {
      closed = true
      socket?.close()
    },
  }
}

/**
 * Where the engine is. In browser mode the page came from the engine host itself and the token is
 * in the URL fragment (kept for reloads in sessionStorage, then removed from the address bar); in
 * the Electron window the preload asks the main process. A server with accounts (`serve --accounts`)
 * gives no token: the session's cookie goes with the socket's upgrade.
 */
export async function findEngineAddress(): Promise<EngineAddress> {
  const bridge = (window as unknown as { hookloop?: HookloopBridge }).hookloop
  if (bridge?.engineAddress) return bridge.engineAddress()
  const fragment = new URLSearchParams(window.location.hash.slice(1))
  const fromUrl = fragment.get('token')
  if (fromUrl) {
    sessionStorage.setItem('hookloop.token', fromUrl)
    history.replaceState(null, '', window.location.pathname + window.location.search)
  }
  const socketOrigin = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}`
  const token = fromUrl ?? sessionStorage.getItem('hookloop.token')
  if (token) return { socketOrigin, token }
  // A server with accounts admits the signed-in session's cookie, not a token.
  if (await signedIn()) return { socketOrigin, token: '' }
  throw new Error('This page needs the address printed by `hookloop serve` (it carries the access token). Open that URL again.')
}
