// npm run bench:costs — where a received request's CPU goes, stage by stage, beside a bare
// node:http server's: each target's server process runs under `node --cpu-prof` (one profile per
// thread), is warmed up, then loaded as bench:receiver loads it; only the measured window's
// samples count (cpu-costs.ts). Prints a table of CPU µs per request by stage and thread, then one
// JSON line. The figures are a map, not a race: the profiler itself costs a few per cent.
// `--detail=REGEX` shows the stages it matches by file and function (`--detail=verify`).
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

/** The receivers to profile: this tree's, and each `--against` tree's before it (costs-run.mjs). */
const TREES = JSON.parse(process.env.COSTS_TREES ?? '[]') as { label: string; server: string }[]
const ROUNDS = Number(process.env.COSTS_ROUNDS ?? 1)

interface TargetCosts {
  label: string
  requests: number
  rps: number
  threads: ThreadCosts[]
}

/** Node names a profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile; thread 0 is the main one. */
const isMainProfile = (file: string) => file.endsWith('.cpuprofile') && file.split('.').at(-3) === '0'

async function measure(label: string, server: string, target: 'bare' | 'hookloop'): Promise<TargetCosts> {
  const dir = mkdtempSync(join(tmpdir(), `hookloop-costs-${target}-`))
  try {
    const process_ = await startServerProcess(server, [target, secret], ['--cpu-prof', `--cpu-prof-dir=${dir}`])
    const url = `http://127.0.0.1:${process_.port}/h/bench`
    await load(url, WARMUP_S)
    const from = Number(process.hrtime.bigint() / 1000n)
    const result = await load(url, DURATION_S)
    const to = Number(process.hrtime.bigint() / 1000n)
    await process_.stop()
    // Each thread's profile is written as it ends, the main thread's last, as the process exits.
    const mainWritten = () => readdirSync(dir).some(isMainProfile)
    for (let i = 0; i < 100 && !mainWritten(); i++) await sleep(100)
    await sleep(200)
    return { label, requests: result.ok2xx, rps: result.rps, threads: dirCosts(dir, RECEIVER_STAGES, from, to) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const total = (c: TargetCosts) => c.threads.reduce((sum, t) => sum + t.totalUs, 0)
const perRequest = (us: number, c: TargetCosts) => us / Math.max(1, c.requests)

// Rounds interleave the targets, so a noisy moment of the shared machine falls on all of them.
const thisTree = TREES.at(-1) ?? { label: 'this tree', server: 'receiver-server-process' }
const targets = [{ label: 'bare node:http', server: thisTree.server, target: 'bare' as const }, ...TREES.map((t) => ({ label: `Hookloop, ${t.label}`, server: t.server, target: 'hookloop' as const }))]
const rounds: TargetCosts[][] = targets.map(() => [])
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, t] of targets.entries()) rounds[i]!.push(await measure(t.label, t.server, t.target))
}
// Each target's round of median CPU per request stands for it.
const chosen = rounds.map((runs) => [...runs].sort((a, b) => perRequest(total(a), a) - perRequest(total(b), b))[Math.floor(runs.length / 2)] as TargetCosts)

const lines: string[] = [`Where a received request's CPU goes: ${DURATION_S} s of load after ${WARMUP_S} s warm-up, 32 connections, Standard Webhooks messages, ${ROUNDS} round(s); CPU µs per request answered 2xx, by thread and stage (the innermost Hookloop frame's).`, '']
const json: Record<string, unknown> = { bench: 'costs', rounds: ROUNDS }
const bareUs = perRequest(total(chosen[0]!), chosen[0]!)
for (const c of chosen) {
  const all = total(c)
  const us = perRequest(all, c)
  lines.push(`${c.label}: ${c.requests} requests, ${c.rps.toFixed(0)} req/s, ${us.toFixed(0)} CPU µs per request in all threads (${(us / bareUs).toFixed(1)}× bare)`)
  const rows: string[][] = []
  for (const thread of c.threads) {
    for (const stage of thread.stages) {
      if (stage.us / all < 0.004) continue
      rows.push([`${thread.thread}: ${stage.stage}`, perRequest(stage.us, c).toFixed(1), `${((100 * stage.us) / all).toFixed(1)} %`])
    }
  }
  lines.push(...markdownTable([72, 8, 8], ['stage', 'µs/req', 'share'], rows), '')
  json[c.label] = {
    requests: c.requests,
    rps: Math.round(c.rps),
    cpu_us: Math.round(us),
    per_round_cpu_us: rounds[chosen.indexOf(c)]!.map((r) => Math.round(perRequest(total(r), r))),
    stages: Object.fromEntries(c.threads.flatMap((t) => t.stages.map((st) => [`${t.thread}: ${st.stage}`, Number(perRequest(st.us, c).toFixed(1))]))),
  }
}
process.stdout.write(lines.join('\n') + '\n' + JSON.stringify(json) + '\n')
