// `hookloop serve [--port P] [--data DIR]`: browser mode. Starts the engine in its own process and
// serves the app on 127.0.0.1; the first line printed is the URL to open (it carries this run's
// token). Ctrl-C stops the engine cleanly.
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HostReplyMessage, HostStartMessage } from '../engine/host-process'
import { createToken } from '../engine/host'
import type { Command } from './commands'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, dataDirArg } from './data-dir-arg'

const USAGE = `Usage: hookloop serve [--port P] [--data DIR] [--receiver-port P] [--tunnel-host URL]

Runs the engine and serves the Hookloop app in your browser, on this machine only.
{options}
The first line printed is the address to open; it carries a secret token for this run.`

const OPTIONS = {
  port: { type: 'port', short: 'p', default: 0, value: 'P', help: 'port of the app (0: any free port)' },
  data: { type: 'string', value: 'DIR', help: `data folder (${DATA_DIR_DEFAULT_HELP})` },
  'receiver-port': { type: 'port', value: 'P', help: 'port of the webhook receiver (default: any free port)' },
  'tunnel-host': { type: 'string', value: 'URL', help: 'open a public tunnel through this localtunnel server' },
} as const satisfies OptionSpecs

export async function serve(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const parsed = commandArgs('serve', USAGE, args, OPTIONS, false, out)
  if (!parsed) return 0
  const { port: appPort, 'receiver-port': receiverPort } = parsed.values
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
  const tunnelHost = parsed.values['tunnel-host']

  // Anything the engine prints goes to stderr: stdout's first line is the URL, for scripts.
  const child = fork(hostScript, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  child.stdout?.pipe(err)
  const start: HostStartMessage = {
    type: 'start',
    options: {
      dataDir,
      port: appPort,
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
  const stop = () => child.kill('SIGTERM')
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  out.write(`${reply.openUrl}\n`)
  out.write(`Hookloop is running: open the address above (it carries this run's access token).\n`)
  out.write(`Webhook receiver: ${reply.receiverUrl}/h/<endpoint>   data: ${dataDir}   Ctrl-C to stop.\n`)
  const code = await exited
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return code
}

export const serveCommand: Command = (args) => serve(args)
