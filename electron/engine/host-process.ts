// The engine process: runs one engine and its control server, started by the Electron shell
// (utilityProcess) or by `hookloop serve` (a Node child process). The parent sends one `start`
// message with the settings (the token travels this way, never in argv or the environment) and
// receives `ready` with the address, or `failed` with the reason.
import { startHost, type Host, type HostOptions } from './host'

export type HostStartMessage = { type: 'start'; options: Omit<HostOptions, 'log'> }
export type HostReplyMessage = { type: 'ready'; port: number; origin: string; openUrl: string; receiverUrl: string } | { type: 'failed'; message: string }

interface ParentPort {
  on(event: 'message', listener: (message: { data: unknown }) => void): void
  postMessage(message: unknown): void
}

// Electron's utilityProcess gives process.parentPort; a Node child has process.send.
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

function reply(message: HostReplyMessage): void {
  if (parentPort) parentPort.postMessage(message)
  else process.send?.(message)
}

let host: Host | null = null

async function start(message: unknown): Promise<void> {
  const start = message as HostStartMessage
  if (!start || start.type !== 'start' || host) return
  try {
    host = await startHost({ ...start.options, log: (line) => process.stderr.write(`${line}\n`) })
    reply({ type: 'ready', port: host.control.port, origin: host.control.origin, openUrl: host.control.openUrl, receiverUrl: host.engine.receiver.url })
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
    process.exitCode = 1
    setTimeout(() => process.exit(1), 100).unref()
  }
}

async function stop(): Promise<void> {
  const running = host
  host = null
  if (running) await running.close()
  process.exit(0)
}

if (parentPort) parentPort.on('message', (event) => void start(event.data))
else process.on('message', (message) => void start(message))
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
// The parent went away (IPC closed): nothing can reach this engine any more.
process.on('disconnect', () => void stop())
