import { afterEach } from 'vitest'
import { createToken } from '../../../../electron/engine/host/guard'
import { startHost, type Host } from '../../../../electron/engine/host/run-host'
import type WebSocket from 'ws'
import { makeTempDir } from '../../../support/temp-dir'
import { connectControl, type Call } from './control-client'

export interface HostSession {
  host: Host
  call: Call
  ws: WebSocket
  /** The run's token, for the control server's HTTP routes. */
  token: string
}

/**
 * Registers an afterEach that closes every session the test opened, and returns the opener:
 * a host on a fresh temp data folder with a control socket connected to it.
 */
export function useHostSessions(): () => Promise<HostSession> {
  const closers: (() => Promise<void>)[] = []
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()?.()
  })
  return async () => {
    const { dir, cleanup } = makeTempDir()
    closers.push(async () => cleanup())
    const token = createToken()
    const host = await startHost({ dataDir: dir, port: 0, token })
    closers.push(() => host.close())
    const { call, ws } = await connectControl(host, token)
    closers.push(async () => ws.close())
    return { host, call, ws, token }
  }
}

/** Waits (bounded) until every delivery is final. */
export async function settled(host: Host, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (ids.every((id) => host.engine.isDeliverySettled(id))) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`deliveries ${ids.join(', ')} did not settle`)
}
