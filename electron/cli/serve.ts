// `hookloop serve [--port P] [--data DIR]`: browser mode. Starts the engine in its own process and
// serves the app on loopback; the first line printed is the URL to open (it carries this run's
// token). The same port answers the probes and metrics (engine/host/probe-routes.ts). SIGTERM or
// Ctrl-C drains the engine (answers in flight finished) and stops it; a second signal stops it at once.
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HostReplyMessage, HostStartMessage } from '../engine/host-process'
import { createToken, DEFAULT_DRAIN_MS } from '../engine/host'
import type { Command } from './commands'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, dataDirArg } from './data-dir-arg'
import { STORE_ENV } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop serve [--port P] [--host ADDR] [--data DIR] [--receiver-port P] [--tunnel-host URL] [--metrics-token T] [--drain-timeout S]

Runs the engine and serves the Hookloop app in your browser, on this machine only.
{options}
The first line printed is the address to open; it carries a secret token for this run.
GET /livez, /readyz and /metrics on the app's port answer without the token (docs/team.md,
"Running it"). SIGTERM or Ctrl-C drains: no new connection, the answers in flight are finished
and recorded, then it exits 0; a second signal stops it at once.`

const OPTIONS = {
  port: { type: 'port', short: 'p', default: 0, value: 'P', env: 'HOOKLOOP_PORT', help: 'port of the app, the probes and the metrics (0: any free port)' },
  host: { type: 'string', value: 'ADDR', env: 'HOOKLOOP_HOST', help: 'loopback address of the app and the receiver: 127.0.0.1 (default), ::1 or localhost; any other is refused while Hookloop has no accounts' },
  data: { type: 'string', value: 'DIR', help: `data folder (${DATA_DIR_DEFAULT_HELP})` },
  'receiver-port': { type: 'port', value: 'P', env: 'HOOKLOOP_RECEIVER_PORT', help: 'port of the webhook receiver (default: any free port)' },
  'tunnel-host': { type: 'string', value: 'URL', env: 'HOOKLOOP_TUNNEL_HOST', help: 'open a public tunnel through this localtunnel server' },
  'metrics-token': { type: 'string', value: 'T', env: 'HOOKLOOP_METRICS_TOKEN', help: 'GET /metrics answers only to `Authorization: Bearer T` (default: open, like the probes)' },
  'drain-timeout': { type: 'number', min: 0, max: 3600, value: 'S', env: 'HOOKLOOP_DRAIN_TIMEOUT', default: DEFAULT_DRAIN_MS / 1000, help: 'on SIGTERM, seconds to wait for the requests in flight' },
} as const satisfies OptionSpecs

/** The loopback names `--host` takes, and the address each one listens on. */
const LOOPBACK: Record<string, string> = { '127.0.0.1': '127.0.0.1', localhost: '127.0.0.1', '::1': '::1', '[::1]': '::1' }

/**
 * The address to listen on. Anything beyond loopback is refused: the app's only lock is this run's
 * token, and a server others reach needs accounts first (docs/team.md, "Running it").
 */
export function serveHost(given: string | undefined, from = '--host'): string {
  if (given === undefined) return '127.0.0.1'
  const address = LOOPBACK[given.toLowerCase()]
  if (address) return address
  throw new UsageError(
    `serve: ${from} ${given} refused: Hookloop has no accounts yet, so it listens on loopback only (127.0.0.1, ::1, localhost); to share it, put an authenticating reverse proxy in front of it (docs/team.md, "Running it")`,
  )
}

export async function serve(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const parsed = commandArgs('serve', USAGE, args, OPTIONS, false, out)
  if (!parsed) return 0
  const { port: appPort, 'receiver-port': receiverPort, 'metrics-token': metricsToken } = parsed.values
  const hostGiven = args.some((arg) => arg === '--host' || arg.startsWith('--host='))
  const host = serveHost(parsed.values.host, hostGiven ? '--host' : '$HOOKLOOP_HOST')
  // This module may be bundled into out/main/ or a chunk folder below it.
  const here = dirname(fileURLToPath(import.meta.url))
  const mainDir = [here, dirname(here)].find((dir) => existsSync(join(dir, 'host.js'))) ?? here
  const staticDir = join(mainDir, '..', 'renderer')
  const hostScript = join(mainDir, 'host.js')
  if (!existsSync(join(staticDir, 'index.html')) || !existsSync(hostScript)) {
    err.write(`hookloop: the app is not built next to this command (looked in ${staticDir}); run \`npm run build\` first\n`)
    return 1
  }
  const dataDir = dataDirArg('serve', parsed.values.data)
  // A server configured for a team store (compose.yaml) runs on its data folder until serve takes
  // one: said once, so nobody believes the team's history is where it is not. Never the URL (it
  // may carry a password).
  if (process.env[STORE_ENV]?.trim()) err.write(`hookloop: serve runs on the data folder ${dataDir}; it does not read $${STORE_ENV} yet (docs/team.md, "What works today")\n`)
  const tunnelHost = parsed.values['tunnel-host']

  // Anything the engine prints goes to stderr: stdout's first line is the URL, for scripts.
  // Its own process group: a terminal's Ctrl-C reaches this process only, which drains the engine
  // with one signal (two would stop it at once). Should this process die, the engine sees its IPC
  // close and stops itself (host-process.ts).
  const child = fork(hostScript, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], detached: true })
  child.stdout?.pipe(err)
  const start: HostStartMessage = {
    type: 'start',
    drainMs: parsed.values['drain-timeout'] * 1000,
    options: {
      dataDir,
      port: appPort,
      host,
      ...(metricsToken ? { metricsToken } : {}),
      token: createToken(),
      staticDir,
      ...(receiverPort === undefined ? {} : { receiverPort }),
      ...(tunnelHost ? { tunnel: { host: tunnelHost } } : {}),
    },
  }
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1))))
  const ready = new Promise<HostReplyMessage | null>((resolve) => {
    child.once('message', (message) => resolve(message as HostReplyMessage))
    void exited.then(() => resolve(null))
  })
  child.send(start)
  const reply = await ready
  if (!reply || reply.type === 'failed') {
    err.write(`hookloop: the engine did not start: ${reply?.message ?? 'its process exited'}\n`)
    child.kill('SIGTERM')
    await exited
    return 1
  }
  // Signals are handled before the lines are printed: a script that waits for them may stop us at
  // once, and its signal can arrive before this process runs its next statement.
  // The first signal drains the engine, a second stops it at once (host-process.ts).
  const stop = () => child.kill('SIGTERM')
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  out.write(`${reply.openUrl}\n`)
  out.write(`Hookloop is running: open the address above (it carries this run's access token).\n`)
  out.write(`Webhook receiver: ${reply.receiverUrl}/h/<endpoint>   data: ${dataDir}   Ctrl-C to stop.\n`)
  const code = await exited
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return code
}

export const serveCommand: Command = (args) => serve(args)
