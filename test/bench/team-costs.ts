// npm run bench:team-costs — where the machine's CPU goes while one and then two `hookloop serve`
// processes capture on one PostgreSQL (bench:team's postgres and postgres-two targets: the same
// load, warm-up and live clients, team-capture.ts). For each run, every process's CPU as Linux
// counted it over the measured window (/proc), per captured request, by who spent it: the serve
// engines, the database server's processes, the load generators, the rest. Options:
// - `--statements`: the embedded server runs with pg_stat_statements, and each run prints the
//   statements by their server time per captured request (calls, time, rows; a statement run
//   inside a trigger is counted on its own line and within its caller's time). The server time is
//   wall time, so on a busy machine it includes waits for a CPU.
// - `--profile`: the engines run under `node --cpu-prof` and their time is mapped to stages
//   (cpu-costs.ts; a sample's time is wall time too).
// A map, not a race: one JSON line per run, figures per request answered 2xx.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { startTestPostgres, type TestPostgres } from '../support/postgres'
import { dirCosts, type StageRule } from './cpu-costs'
import { DURATION_S, ROUNDS } from './load-rig'
import { connect, enginePid, stop, type Control, type Served } from './scale-control'
import { ENDPOINT, loadAll, TEAM_WARMUP_S } from './team-capture'
import { serveOn } from './team-serve'
import { freshStore } from './team-stores'

const PROFILE = process.argv.includes('--profile')
const STATEMENTS = process.argv.includes('--statements')
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

interface ProcessCpu {
  /** User and system time so far, µs. */
  us: number
  comm: string
  cmd: string
}

/** Every process's CPU time so far, by pid. */
function processes(): Map<number, ProcessCpu> {
  const out = new Map<number, ProcessCpu>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // After "pid (name)": utime is field 14 and stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')
      out.set(Number(entry), { us: (Number(fields[11]) + Number(fields[12])) * TICK_US, comm, cmd })
    } catch {
      // ended meanwhile
    }
  }
  return out
}

const STAGES: StageRule[] = [
  { stage: 'live timeline: watch and reads', file: /(host\/timeline-(watch|views)|store\/(timeline-reads|change-reads|change-feed))\.ts$/ },
  { stage: 'live push: control socket', file: /host\/(control-server|views)\.ts$/ },
  { stage: 'store notices', file: /store\/store-notify\.ts$/ },
  { stage: 'dedupe: key probes', file: /(receiver\/dedupe|store\/key-group-reads|store\/keyed-statements)\.ts$/ },
  { stage: 'capture writer (group commit)', file: /(receiver\/capture-writer|store\/(sql-writer|sql-writer-lanes|engine-writer|request-codec))\.ts$/ },
  { stage: 'receiver (the rest)', file: /engine\/(receiver|signatures)\// },
  { stage: 'store engine (pg)', file: /store\/postgres-engine\.ts$/ },
]

interface Run {
  target: 'postgres' | 'postgres-two'
  rps: number
  /** CPU µs per captured request, by who spent it. */
  cpu_us: Record<string, number>
  statements?: Array<{ calls: number; us: number; rows: number; text: string }>
  profiles?: Array<{ us: number; stages: Record<string, number> }>
}

/** The server's statements over the window, per captured request (pg_stat_statements, reset at its start). */
async function statementsSince(admin: pg.Client, ok: number): Promise<Run['statements']> {
  const { rows } = await admin.query<{ calls: string; ms: number; rows: string; text: string }>(
    `SELECT sum(calls) AS calls, sum(total_exec_time) AS ms, sum(rows) AS rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS text
       FROM pg_stat_statements GROUP BY 4 ORDER BY 2 DESC LIMIT 16`,
  )
  return rows.map((r) => ({ calls: Number((Number(r.calls) / ok).toFixed(3)), us: Number(((1000 * r.ms) / ok).toFixed(1)), rows: Number((Number(r.rows) / ok).toFixed(2)), text: r.text }))
}

async function run(postgres: TestPostgres, count: 1 | 2, admin: pg.Client | null): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-team-costs-'))
  const store = await freshStore('postgres', dir, postgres)
  const servers: Served[] = []
  const clients: Control[] = []
  const execArgv = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'prof')}`] : []
  // Stopped before the profiles are read (a process writes its own as it exits), and whatever happens.
  const stopAll = async () => {
    for (const client of clients.splice(0)) client.close()
    await Promise.all(servers.splice(0).map(stop))
  }
  try {
    for (let i = 0; i < count; i++) {
      servers.push(await serveOn(store.where, { keyFile: join(dir, 'team.key'), execArgv }))
      clients.push(await connect(servers[i]!))
      if (i === 0) await clients[0]!.call('endpoint.create', ENDPOINT)
    }
    const urls = servers.map((s) => `${s.receiverUrl}/h/bench`)
    await loadAll(urls, TEAM_WARMUP_S * count)
    const engines = new Set(servers.map(enginePid))
    const parents = new Set(servers.map((s) => s.child.pid!))
    await admin?.query('SELECT pg_stat_statements_reset()')
    const before = processes()
    const fromUs = Number(process.hrtime.bigint() / 1000n)
    const loads = await loadAll(urls, DURATION_S)
    const toUs = Number(process.hrtime.bigint() / 1000n)
    const after = processes()
    const ok = loads.reduce((n, l) => n + l.ok2xx, 0)
    const spent: Record<string, number> = {}
    for (const [pid, p] of after) {
      const used = p.us - (before.get(pid)?.us ?? 0)
      if (used <= 0) continue
      const who =
        engines.has(pid) ? 'serve engines'
        : parents.has(pid) ? 'serve parents'
        : p.comm === 'postgres' ? 'database server'
        : p.cmd.includes('receiver-load-process') ? 'load generators'
        : 'the rest'
      spent[who] = (spent[who] ?? 0) + used
    }
    const result: Run = {
      target: count === 1 ? 'postgres' : 'postgres-two',
      rps: Math.round(ok / DURATION_S),
      cpu_us: Object.fromEntries(Object.entries(spent).map(([who, us]) => [who, Math.round(us / ok)])),
    }
    if (admin) result.statements = await statementsSince(admin, ok)
    await stopAll()
    if (PROFILE) {
      // The engines' main threads (the serve parents idle), their stages in the window.
      const threads = dirCosts(join(dir, 'prof'), STAGES, fromUs, toUs).filter((t) => t.thread === 'main thread' && t.totalUs > 0.2 * (toUs - fromUs))
      result.profiles = threads.map((t) => ({ us: Math.round(t.totalUs / ok), stages: Object.fromEntries(t.stages.slice(0, 12).map((s) => [s.stage, Math.round(s.us / ok)])) }))
    }
    return result
  } finally {
    await stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

const postgres = await startTestPostgres(STATEMENTS ? { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } } : {})
let admin: pg.Client | null = null
try {
  if (STATEMENTS) {
    admin = new pg.Client({ connectionString: postgres.urlOf('postgres') })
    await admin.connect()
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Rotated, so neither always runs first.
    for (const count of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) console.log(JSON.stringify(await run(postgres, count, admin)))
  }
} finally {
  await admin?.end()
  await postgres.stop()
}
