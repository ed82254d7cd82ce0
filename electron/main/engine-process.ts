// Starts the engine in an Electron utilityProcess (its own process: a flood of webhooks never
// blocks the window) and waits for its control server's address.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { utilityProcess, type UtilityProcess } from 'electron'
import type { HostReplyMessage, HostStartMessage } from '../engine/host'
import { createToken } from '../engine/host/guard'

export interface EngineProcess {
  origin: string
  port: number
  token: string
  process: UtilityProcess
  stop(): void
}

export interface EngineProcessOptions {
  dataDir: string
  rendererDir: string
  /** better-sqlite3 built for Electron's ABI (see docs/ui.md); absent when not built. */
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
  return { origin: reply.origin, port: reply.port, token, process: child, stop: () => child.kill() }
}

/**
 * better-sqlite3 for Electron's ABI. Tests and the CLI load Node's build from node_modules; the
 * app needs one compiled against Electron's headers, kept apart so neither breaks the other.
 */
export function electronNativeBinding(appPath: string): string | undefined {
  const candidate = join(appPath, 'native', 'electron', 'better_sqlite3.node')
  return existsSync(candidate) ? candidate : undefined
}
