// Starts the engine in an Electron utilityProcess (its own process: a flood of webhooks never
// blocks the window) and waits for its control server's address.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { utilityProcess, type UtilityProcess } from 'electron'
import type { HostReplyMessage, HostStartMessage } from '../engine/host-process'
import { createToken } from '../engine/host'

export interface EngineProcess {
  origin: string
  port: number
  token: string
  process: UtilityProcess
  /** Ends the engine process; resolves once it has exited. */
  stop(): Promise<void>
}

export interface EngineProcessOptions {
  dataDir: string
  rendererDir: string
  /** better-sqlite3 built for Electron's ABI (native/electron, see native-binding.ts). */
  nativeBinding?: string
  /** The data key sealing signing secrets at rest (base64), from the OS keychain (data-key.ts). */
  secretKey?: string
  warnings: string[]
}

export async function startEngineProcess(options: EngineProcessOptions): Promise<EngineProcess> {
  const script = join(__dirname, 'host.js')
  if (!existsSync(script)) throw new Error(`the engine is not built next to the app (${script}); run \`npm run build\``)
  const token = createToken()
  const child = utilityProcess.fork(script, [], { serviceName: 'Hookloop engine', stdio: 'inherit' })
  const reply = await new Promise<HostReplyMessage>((resolve) => {
    child.once('message', (message: HostReplyMessage) => resolve(message))
    child.once('exit', (code) => resolve({ type: 'failed', message: `the engine process exited (${code})` }))
    const start: HostStartMessage = {
      type: 'start',
      options: {
        dataDir: options.dataDir,
        port: 0,
        token,
        staticDir: options.rendererDir,
        warnings: options.warnings,
        ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
        ...(options.secretKey ? { secretKey: options.secretKey } : {}),
      },
    }
    child.postMessage(start)
  })
  if (reply.type === 'failed') {
    child.kill()
    throw new Error(reply.message)
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = () => {
    child.kill()
    return exited
  }
  return { origin: reply.origin, port: reply.port, token, process: child, stop }
}
