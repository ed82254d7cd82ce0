// npm run bench:costs — where a received request's CPU goes, stage by stage, beside a bare
// node:http server's: each target's server process runs under `node --cpu-prof` (one profile per
// thread), is warmed up, then loaded as bench:receiver loads it; only the measured window's
// samples count (cpu-costs.ts). Prints a table of CPU µs per request by stage and thread, then one
// JSON line. The figures are a map, not a race: the profiler itself costs a few per cent.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { dirCosts, type StageRule, type ThreadCosts } from './cpu-costs'
import { DURATION_S, load, markdownTable, startServerProcess, WARMUP_S, secret } from './load-rig'

/** The receiver's stages (docs/BENCHMARKS.md, "Where a received request's CPU goes"), by source file and function. */
const RECEIVER_STAGES: StageRule[] = [
  { stage: 'route: the endpoint by its path', file: /receiver\/definitions\.ts$/ },
  { stage: 'rules: the answer chosen', file: /receiver\/(rule-engine|query-matcher)\.ts$/ },
  { stage: 'body read', file: /receiver\/(read-body|body-budget)\.ts$/ },
  { stage: 'body read', file: /receiver\/handle-request\.ts$/, fn: /^(read|applyRead|refuseBeforeReading)$/ },
  { stage: 'signature verify', file: /(engine\/signatures\/|receiver\/verify-request\.ts$)/ },
  { stage: 'dedupe: key read and numbered', file: /(receiver\/(dedupe|json-document|json-fields)\.ts|shared\/providers\/event-id\.ts)$/ },
  { stage: 'inspect (the rest)', file: /receiver\/inspect\.ts$/ },
  { stage: 'record: the row encoded and queued', file: /(receiver\/capture-writer\.ts|store\/(sql-writer|sql-writer-lanes|request-codec|changes)\.ts)$/ },
  { stage: 'record: the row encoded and queued', file: /receiver\/handle-request\.ts$/, fn: /^(record|applyInspection|captureHead|placeOnClock|finish|headerPairs|splitUrl)$/ },
  { stage: 'answer written', file: /receiver\/steps\.ts$/ },
  { stage: 'answer written', file: /receiver\/handle-request\.ts$/, fn: /^(answer|writeRaw)$/ },
  { stage: 'live publish: events told', file: /receiver\/handle-request\.ts$/, fn: /^announce$/ },
  { stage: 'live publish: events told', file: /receiver\/receiver\.ts$/, fn: /^emit$/ },
  { stage: 'breakpoints', file: /receiver\/(breakpoints|hold)\.ts$/ },
  { stage: 'connections: deadlines and bookkeeping', file: /receiver\/(server|connection|linger)\.ts$/ },
  { stage: 'request pipeline (handle-request, the rest)', file: /receiver\/handle-request\.ts$/ },
  { stage: 'clock', file: /engine\/clock\// },
]

const TARGETS = ['bare', 'hookloop'] as const
type Target = (typeof TARGETS)[number]

interface TargetCosts {
  requests: number
  rps: number
  threads: ThreadCosts[]
}

/** Node names a profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile; thread 0 is the main one. */
const isMainProfile = (file: string) => file.endsWith('.cpuprofile') && file.split('.').at(-3) === '0'

async function measure(target: Target): Promise<TargetCosts> {
  const dir = mkdtempSync(join(tmpdir(), `hookloop-costs-${target}-`))
  try {
    const server = await startServerProcess('receiver-server-process', [target, secret], ['--cpu-prof', `--cpu-prof-dir=${dir}`])
    const url = `http://127.0.0.1:${server.port}/h/bench`
    await load(url, WARMUP_S)
    const from = Number(process.hrtime.bigint() / 1000n)
    const result = await load(url, DURATION_S)
    const to = Number(process.hrtime.bigint() / 1000n)
    await server.stop()
    // Each thread's profile is written as it ends, the main thread's last, as the process exits.
    const mainWritten = () => readdirSync(dir).some(isMainProfile)
    for (let i = 0; i < 100 && !mainWritten(); i++) await sleep(100)
    await sleep(200)
    return { requests: result.ok2xx, rps: result.rps, threads: dirCosts(dir, RECEIVER_STAGES, from, to) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = {} as Record<Target, TargetCosts>
for (const target of TARGETS) results[target] = await measure(target)

const perRequest = (us: number, target: Target) => us / Math.max(1, results[target].requests)
const lines: string[] = [`Where a received request's CPU goes: ${DURATION_S} s of load after ${WARMUP_S} s warm-up, 32 connections, Standard Webhooks messages; CPU µs per request answered 2xx, by thread and stage (innermost Hookloop frame).`, '']
const json: Record<string, unknown> = { bench: 'costs' }
for (const target of TARGETS) {
  const { threads, requests, rps } = results[target]
  const total = threads.reduce((sum, t) => sum + t.totalUs, 0)
  lines.push(`${target}: ${requests} requests, ${rps.toFixed(0)} req/s, ${perRequest(total, target).toFixed(0)} CPU µs per request in all threads`)
  const rows: string[][] = []
  for (const thread of threads) {
    for (const stage of thread.stages) {
      if (stage.us / thread.totalUs < 0.005) continue
      rows.push([`${thread.thread}: ${stage.stage}`, perRequest(stage.us, target).toFixed(1), `${((100 * stage.us) / total).toFixed(1)} %`])
    }
  }
  lines.push(...markdownTable([70, 9, 8], ['stage', 'µs/req', 'share'], rows), '')
  json[target] = {
    requests,
    cpu_us: Math.round(perRequest(total, target)),
    stages: Object.fromEntries(threads.flatMap((t) => t.stages.map((s) => [`${t.thread}: ${s.stage}`, Number(perRequest(s.us, target).toFixed(1))]))),
  }
}
process.stdout.write(lines.join('\n') + '\n' + JSON.stringify(json) + '\n')
