// A UI's side of the control socket for tests: commands as typed calls over a real WebSocket,
// with the Origin a page of ours would send.
import WebSocket from 'ws'
import { CONTROL_PATH, type CommandName, type CommandRequest, type CommandResponse, type ServerFrame } from '../../../../shared/contract'
import type { Host } from '../../../../electron/engine/host/run-host'

export type Call = <C extends CommandName>(name: C, req: CommandRequest<C>) => Promise<CommandResponse<C>>

export async function connectControl(h: Host, token: string): Promise<{ call: Call; ws: WebSocket }> {
  return connectControlAt(h.control.origin, token)
}

/** The same, to a host in another process (`hookloop serve`): its origin and token. */
export async function connectControlAt(origin: string, token: string): Promise<{ call: Call; ws: WebSocket }> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}${CONTROL_PATH}?token=${token}`, { headers: { origin } })
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if (frame.t !== 'res') return
    const waiting = pending.get(frame.id)
    pending.delete(frame.id)
    if (frame.ok) waiting?.resolve(frame.res)
    else waiting?.reject(new Error(`${frame.error.code}: ${frame.error.message}`))
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  let next = 1
  const call: Call = (name, req) =>
    new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
    })
  return { call, ws }
}


let nextFrameId = 1_000_000

/** One command on an open socket, answered as its frame says (ok, or the error's code and message), never thrown. */
export function commandFrame(ws: WebSocket, name: string, req: unknown): Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }> {
  const id = nextFrameId++
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as ServerFrame
      if (frame.t !== 'res' || frame.id !== id) return
      ws.off('message', onMessage)
      done(frame.ok ? { ok: true, res: frame.res } : { ok: false, error: frame.error })
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
  })
}
