// `hookloop listen` and `resend` with --store, as a user runs them (the built CLI): listen on
// a team's PostgreSQL captures what is sent to it and `requests --store` lists it as `requests
// --data` lists the same request captured by listen on a data folder; resend re-sends a request
// of the team store and stores the leg there; bad stores are one line, the password never shown.
// (`run --store`: run-store.test.ts.)
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openStore, parseStoreLocation } from '../../../electron/engine/store'
import { startListen, type RunningListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir('hookloop-listen-store-')
const keys = useTempDir('hookloop-team-key-', 'all')
let keyFile: string
/** A team member's environment: the team's data key, no store named by default. */
const env = (): NodeJS.ProcessEnv => ({ ...process.env, HOOKLOOP_STORE: '', HOOKLOOP_DATA: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_SECRET_KEY_FILE: keyFile })

const running: RunningListen[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const listen of running.splice(0)) {
    listen.kill('SIGINT')
    await listen.exited
  }
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

beforeAll(() => {
  // startListen spawns with this process's environment: the team's key goes there.
  process.env.HOOKLOOP_SECRET_KEY_FILE = keyFile = join(keys.dir, 'team.key')
  delete process.env.HOOKLOOP_STORE
  delete process.env.HOOKLOOP_SECRET_KEY
})

async function listenOn(args: string[]): Promise<RunningListen> {
  const listen = await startListen(args)
  running.push(listen)
  return listen
}

/** Sends one webhook to listen's default endpoint and waits for its log line. */
async function sendTo(listen: RunningListen, body: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${listen.port}/h/default?order=7`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shop': 'north' }, body })
  await response.arrayBuffer()
  expect(response.status).toBe(200)
  await listen.waitForOutput((out) => out.includes('status=200'))
}

/** `requests --json` rows, without what differs between two captures of one request (its id, its endpoint's, its times). */
async function listed(args: string[]): Promise<Record<string, unknown>[]> {
  const result = await runCli(['requests', ...args, '--json'], { env: env() })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const rows = (JSON.parse(result.stdout) as { requests: Record<string, unknown>[] }).requests
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'id' && key !== 'endpointId' && !key.endsWith('At'))))
}

describe('hookloop listen --store', () => {
  it('captures into a team’s PostgreSQL, and requests --store lists it as requests --data lists the same capture', async () => {
    const team = await postgres.freshDatabase()
    const folder = join(temp.dir, 'folder')
    const body = '{"type":"order.paid","id":"evt_1"}'

    const onTeam = await listenOn(['--store', team])
    expect(onTeam.stdout).toContain(`(store: ${parseStoreLocation(team).where})`)
    await sendTo(onTeam, body)
    const onFolder = await listenOn(['--data', folder])
    await sendTo(onFolder, body)
    for (const listen of running.splice(0)) {
      listen.kill('SIGINT')
      expect(await listen.exited).toBe(0)
    }
    expect(onTeam.stdout).toMatch(/Stopped\. 1 request in postgres:\/\/[^ ]+\.\n/)

    const fromTeam = await listed(['--store', team])
    const fromFolder = await listed(['--data', folder])
    expect(fromTeam).toHaveLength(1)
    expect(fromTeam).toEqual(fromFolder)
    expect(fromTeam[0]).toMatchObject({ endpointSlug: 'default', method: 'POST', path: '/h/default', eventId: 'evt_1', verdict: 'none', responseStatus: 200, bodySize: body.length })
  })

  it('takes HOOKLOOP_STORE; refuses --store with --data, and says in one line that a server does not answer, without its password', async () => {
    const team = await postgres.freshDatabase()
    const viaEnv = await startListenWith({ HOOKLOOP_STORE: team })
    expect(viaEnv).toContain('(store: postgres://')

    const both = await runCli(['listen', '--store', team, '--data', join(temp.dir, 'x')], { env: env() })
    expect(both.code).toBe(2)
    expect(both.stderr).toBe('hookloop: listen: give --store or --data, not both (--store takes a data folder too)\n')

    const down = await runCli(['listen', '--port', '0', '--store', 'postgres://hookloop:hunter2secret@127.0.0.1:1/team'], { env: env() })
    expect(down.code).toBe(1)
    // The warning for the password on its command line, then the one line of the refusal.
    const [warning, refusal, ...more] = down.stderr.trim().split('\n')
    expect(warning).toBe('hookloop: --store carries a password on the command line, where `ps` shows it to anyone on this machine; give the URL in $HOOKLOOP_STORE instead')
    expect(more).toEqual([])
    expect(refusal).toContain('127.0.0.1:1')
    expect(down.stderr + down.stdout).not.toContain('hunter2secret')
  })
})

/** listen with extra environment, until its start-up line; then stopped. What it printed. */
async function startListenWith(extra: NodeJS.ProcessEnv): Promise<string> {
  const saved = { ...process.env }
  Object.assign(process.env, extra)
  try {
    const listen = await listenOn([])
    return listen.stdout
  } finally {
    for (const key of Object.keys(extra)) {
      if (saved[key] === undefined) delete process.env[key]
      else process.env[key] = saved[key]
    }
  }
}

describe('hookloop resend --store', () => {
  it('sends a request captured on a team’s PostgreSQL to the app again and stores the leg there', async () => {
    const team = await postgres.freshDatabase()
    const listen = await listenOn(['--store', team])
    await sendTo(listen, '{"type":"order.paid","id":"evt_2"}')
    listen.kill('SIGINT')
    expect(await listen.exited).toBe(0)
    running.length = 0

    const seen: string[] = []
    const app = createServer((req, res) => {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk.toString()))
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers['x-shop']} ${text}`)
        res.end('thanks')
      })
    })
    servers.push(app)
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    const to = `http://127.0.0.1:${(app.address() as { port: number }).port}/hook`

    const [row] = (JSON.parse((await runCli(['requests', '--store', team, '--json'], { env: env() })).stdout) as { requests: { id: number }[] }).requests
    const resent = await runCli(['resend', String(row!.id), '--to', to, '--store', team], { env: env() })
    expect(resent.stderr).toBe('')
    expect(resent.code).toBe(0)
    expect(resent.stdout).toMatch(new RegExp(`^POST ${to}  as-is  status=200  \\d+ms  outcome=answered  \\(.*leg \\d+ of request ${row!.id}\\)\\n$`))
    expect(seen).toEqual(['POST /hook north {"type":"order.paid","id":"evt_2"}'])

    const store = await openStore(parseStoreLocation(team), { withoutSecrets: true, notice: () => undefined })
    try {
      expect(await store.engine.all('SELECT request_id, kind FROM forward_legs')).toEqual([{ request_id: row!.id, kind: 'resend' }])
      expect(await store.engine.all("SELECT command, via FROM audit WHERE command = 'request.resend'")).toEqual([{ command: 'request.resend', via: 'cli' }])
    } finally {
      await store.engine.close()
    }

    const unknown = await runCli(['resend', '999', '--to', to, '--store', team], { env: env() })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe('hookloop: resend: REQUEST_ID: no captured request with id 999\n')
  })
})
