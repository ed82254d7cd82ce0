// The engine process: runs one engine and its control server, started by the Electron shell
// (utilityProcess) or by `hookloop serve` (a Node child process). The parent sends one `start`
// message with the settings (the token travels this way, never in argv or the environment) and
// receives `ready` with the address, or `failed` with the reason. SIGTERM or SIGINT drains it
// (Host.drain: /readyz says 503, no new connection, answers in flight finished) and closes it,
// exit 0; a second signal meanwhile exits at once, exit 1.
import { startHost, type Host, type HostOptions } from './host'

export type HostStartMessage = {
  type: 'start'
  options: Omit<HostOptions, 'log'>
  /**
   * How long a drain waits for the requests in flight (ms); `serve` sends its --drain-timeout.
   * Absent (the desktop app): 0, so quitting the app never waits on a request a rule holds.
   */
  drainMs?: number
}

export type HostReplyMessage = { type: 'ready'; port: number; origin: string; openUrl: string; receiverUrl: string; setupUrl: string | null } | { type: 'failed'; message: string }

interface ParentPort {
  on(event: 'message', listener: (message: { data: unknown }) => void): void
  postMessage(message: unknown): void
}

// Electron's utilityProcess gives process.parentPort; a Node child has process.send.
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

function reply(message: HostReplyMessage): void {
  if (parentPort) parentPort.postMessage(message)
  // A parent gone before the reply (stopped while the engine started): 'disconnect' stops this
  // engine; the failed send must not crash it first.
  else if (process.connected) process.send?.(message, (error: Error | null) => void error)
}

let host: Host | null = null
let drainMs = 0
let stopping = false

async function start(message: unknown): Promise<void> {
  const start = message as HostStartMessage
  if (!start || start.type !== 'start' || host) return
  if (typeof start.drainMs === 'number') drainMs = start.drainMs
  try {
    host = await startHost({ ...start.options, log: (line) => process.stderr.write(`${line}\n`) })
    reply({ type: 'ready', port: host.control.port, origin: host.control.origin, openUrl: host.openUrl, receiverUrl: host.engine.receiver.url, setupUrl: host.setupUrl })
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
    process.exitCode = 1
    setTimeout(() => process.exit(1), 100).unref()
  }
}

async function stop(): Promise<void> {
  if (stopping) {
    process.stderr.write('hookloop: stopped at once (a second signal during the drain)\n')
    process.exit(1)
  }
  stopping = true
  const running = host
  host = null
  if (running) {
    process.stderr.write('hookloop: draining: no new connections; answering the requests in flight\n')
    await running.drain(drainMs)
    await running.close()
  }
  process.exit(0)
}

if (parentPort) parentPort.on('message', (event) => void start(event.data))
else process.on('message', (message) => void start(message))
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
// The parent went away (IPC closed): nothing can reach this engine any more.
process.on('disconnect', () => void stop())
