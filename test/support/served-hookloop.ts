// A served Hookloop with accounts, from the build (`hookloop serve --accounts --data DIR`), with
// traffic in it: an editor's token runs Try the loop (an endpoint, a subscription signing with a
// secret, an event, its retries, each attempt captured), and the test waits until it settled. The
// tests of `--server URL` compare what a command prints from it with the same command on DIR.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { CLI_PATH, runCli } from './run-cli'
import { makeTempDir } from './temp-dir'

export interface ServedHookloop {
  /** The server's data folder: the same rows, read without the server. */
  dir: string
  /** http://127.0.0.1:<port> */
  origin: string
  /** The loop's endpoint, with its captured requests. */
  slug: string
  /** A new API token of the role (`hookloop token create` on the data folder). */
  token(role: 'viewer' | 'editor' | 'admin'): Promise<string>
  /** A command on the control socket with the token: its answer, or its error frame. */
  command(token: string, name: string, req: unknown): Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }>
  close(): void
}

/** The environment of a command run on its own: no store, server or token but those given. */
export const cliEnv = (extra: Record<string, string> = {}) => ({ env: { ...process.env, HOOKLOOP_STORE: '', HOOKLOOP_SERVER: '', HOOKLOOP_TOKEN: '', ...extra } })

export async function startServedHookloop(): Promise<ServedHookloop> {
  const temp = makeTempDir()
  const dir = temp.dir
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--accounts', '--data', dir, '--admin', 'ada@example.com'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: 'correct horse battery' },
  })
  const close = () => {
    child.kill('SIGKILL')
    temp.cleanup()
  }
  try {
    const origin = new URL(await new Promise<string>((done) => createInterface({ input: child.stdout }).on('line', (line) => /^http/.test(line) && done(line)))).origin
    let made = 0
    const token = async (role: string) => {
      const run = await runCli(['token', 'create', '--name', `${role} bot ${++made}`, '--role', role, '--data', dir], cliEnv())
      if (run.code !== 0) throw new Error(`token create: ${run.stderr}`)
      return run.stdout.trim()
    }
    const command = async (bearer: string, name: string, req: unknown) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: { authorization: `Bearer ${bearer}` } })
      await new Promise((done) => ws.once('message', done))
      try {
        return await new Promise<{ ok: boolean; res?: unknown; error?: { code: string; message: string } }>((done) => {
          ws.on('message', (data) => {
            const frame = JSON.parse(data.toString()) as { t: string; id?: number; ok: boolean; res?: unknown; error?: { code: string; message: string } }
            if (frame.t === 'res' && frame.id === 1) done(frame)
          })
          ws.send(JSON.stringify({ t: 'cmd', id: 1, name, req }))
        })
      } finally {
        ws.close()
      }
    }
    const tried = (await command(await token('editor'), 'loop.try', {})).res as { endpointId: string }
    // Settled: the delivery succeeded after its retries, each attempt captured and answered.
    for (;;) {
      const deliveries = JSON.parse((await runCli(['deliveries', '--data', dir, '--json'], cliEnv())).stdout) as { deliveries: { status: string }[] }
      const requests = JSON.parse((await runCli(['requests', '--data', dir, '--json'], cliEnv())).stdout) as { requests: { endpointId: string; endpointSlug: string; responseStatus: number | null }[] }
      if (deliveries.deliveries.length > 0 && deliveries.deliveries.every((d) => d.status === 'succeeded') && requests.requests.length >= 4 && requests.requests.every((r) => r.responseStatus !== null)) {
        const slug = requests.requests.find((r) => r.endpointId === tried.endpointId)?.endpointSlug ?? ''
        return { dir, origin, slug, token, command, close }
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  } catch (error) {
    close()
    throw error
  }
}
