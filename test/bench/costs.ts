// npm run bench:costs — where a received request's CPU goes, stage by stage, beside a bare
// node:http server's: each target's server process runs under `node --cpu-prof` (one profile per
// thread), is warmed up, then loaded as bench:receiver loads it; only the measured window's
// samples count (cpu-costs.ts). Prints a table of CPU µs per request by stage and thread, then one
// JSON line. The figures are a map, not a race: the profiler itself costs a few per cent.
// `--side=sender`: the same for a sent attempt, beside bench:sender's bare undici loop (each side
// in a process of its own, sender-costs-process.ts, against the failing receiver held here).
// `--detail=REGEX` shows the stages it matches by file and function (`--detail=verify`).
// A sample's time is the wall time since the previous one, so a thread that waits for a CPU (the
// machine busy, or a thread it just woke running in its place) charges that wait to the function
// it was in. Beside the map, the receiver's side prints each target's CPU time as the OS counted it
// (Linux's /proc, per thread) over the same window: the difference is time off the CPU.
import { execFileSync, fork } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { dirCosts, type StageRule, type ThreadCosts } from './cpu-costs'
import { DURATION_S, load, markdownTable, startServerProcess, WARMUP_S, secret } from './load-rig'
import { CONCURRENCY, EVENTS, startReceiver } from './sender-rig'

/** The store engine is shared by every stage: its time goes to the stage whose statement it ran. */
const STORE_ENGINE: StageRule = { stage: 'store statements run here (SqlEngine)', file: /store\/(sql-engine|sqlite-engine|postgres-engine|engine-writes)\.ts$/, passThrough: true }

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
  STORE_ENGINE,
]

/** A sent attempt's stages (docs/BENCHMARKS.md, "Where a sent attempt's CPU goes"), by source file and function. */
const SENDER_STAGES: StageRule[] = [
  { stage: 'due: the scheduler (heap, refill)', file: /engine\/scheduler\// },
  { stage: 'due: the pump', file: /sender\/pump\.ts$/ },
  { stage: 'claim', file: /(sender\/claim-owner|store\/delivery-claims)\.ts$/ },
  { stage: 'claim', file: /store\/deliveries\.ts$/, fn: /^(claim|releaseClaim|recoverInFlight)$/ },
  { stage: 'decide and reschedule (policy)', file: /store\/deliveries\.ts$/, fn: /^reschedule$/ },
  { ...STORE_ENGINE, file: /store\/deliveries\.ts$/, fn: /^write$/ },
  { stage: 'delivery and event read (caches, store)', file: /(sender\/(delivery-cache|event-cache|delivery-reads)|store\/(deliveries|events|sender-store))\.ts$/ },
  { stage: 'signature', file: /engine\/signatures\// },
  { stage: 'body and headers built', file: /(sender\/(attempt-request|envelope|request-headers|corrupt-signature)|engine\/providers\/.*|shared\/providers\/.*)\.ts$/ },
  { stage: 'request sent, answer read (http-post, undici under it)', file: /sender\/(http-post|classify-error)\.ts$/ },
  { stage: 'record: attempt rows encoded and queued', file: /(sender\/attempt-link|store\/(sql-writer|sql-writer-lanes|sql-writer-thread|changes|attempts))\.ts$/ },
  { stage: 'decide and reschedule (policy)', file: /shared\/sender\// },
  { stage: 'live events and views', file: /sender\/(emitter|views)\.ts$/ },
  { stage: 'attempt runner (the rest)', file: /sender\/attempt-runner\.ts$/ },
  { stage: 'clock', file: /engine\/clock\// },
  STORE_ENGINE,
]

const SIDE = process.argv.find((a) => a.startsWith('--side='))?.slice('--side='.length) === 'sender' ? 'sender' : 'receiver'

/** The receivers (or senders) to profile: this tree's, and each `--against` tree's before it (costs-run.mjs). */
const TREES = JSON.parse(process.env.COSTS_TREES ?? '[]') as { label: string; server: string; sender: string }[]
const ROUNDS = Number(process.env.COSTS_ROUNDS ?? 1)

interface TargetCosts {
  label: string
  requests: number
  rps: number
  threads: ThreadCosts[]
  /** CPU time the OS counted in the window (Linux only): the main thread, and the others but the profiler's own. */
  onCpu?: { mainUs: number; otherUs: number }
}

const CLOCK_TICK_US = (() => {
  try {
    return 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
  } catch {
    return 1e6 / 100
  }
})()

/** Each thread of process `pid`: its name and the CPU time the OS counted for it (user + system, µs); null without /proc. */
function threadCpu(pid: number): Map<number, { name: string; us: number }> | null {
  const threads = new Map<number, { name: string; us: number }>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      // After "pid (name)": state is field 3, utime 14 and stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      threads.set(Number(tid), { name, us: (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US })
    }
  } catch {
    return null
  }
  return threads
}

/** The CPU time counted between two readings: the main thread's, and the other threads' but V8's profiler's (it is not the server's work). */
function cpuBetween(pid: number, before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>): TargetCosts['onCpu'] {
  if (!before || !after) return undefined
  let mainUs = 0
  let otherUs = 0
  for (const [tid, { name, us }] of after) {
    const used = us - (before.get(tid)?.us ?? 0)
    if (tid === pid) mainUs = used
    else if (!name.startsWith('v8:Prof')) otherUs += used
  }
  return { mainUs, otherUs }
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
    const cpuFrom = threadCpu(process_.pid)
    const result = await load(url, DURATION_S)
    const onCpu = cpuBetween(process_.pid, cpuFrom, threadCpu(process_.pid))
    const to = Number(process.hrtime.bigint() / 1000n)
    await process_.stop()
    // Each thread's profile is written as it ends, the main thread's last, as the process exits.
    const mainWritten = () => readdirSync(dir).some(isMainProfile)
    for (let i = 0; i < 100 && !mainWritten(); i++) await sleep(100)
    await sleep(200)
    return { label, requests: result.ok2xx, rps: result.rps, threads: dirCosts(dir, RECEIVER_STAGES, from, to), ...(onCpu ? { onCpu } : {}) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One sender-costs-process run (the bare loop or Hookloop's sender) against a fresh failing receiver, profiled. */
async function measureSender(label: string, process_: string, target: 'bare' | 'hookloop'): Promise<TargetCosts> {
  const dir = mkdtempSync(join(tmpdir(), `hookloop-costs-sender-${target}-`))
  const receiver = await startReceiver()
  try {
    const child = fork(process_, [target, String(receiver.port)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`] })
    child.on('message', () => void receiver.reset().then(() => child.send('reset-done')))
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.once('exit', done))
    if (code !== 0) throw new Error(`${label}: the sender process ended with ${code}`)
    const { from, to, attempts } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { from: number; to: number; attempts: number }
    for (let i = 0; i < 100 && !readdirSync(dir).some(isMainProfile); i++) await sleep(100)
    return { label, requests: attempts, rps: attempts / ((to - from) / 1e6), threads: dirCosts(dir, SENDER_STAGES, from, to) }
  } finally {
    receiver.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const total = (c: TargetCosts) => c.threads.reduce((sum, t) => sum + t.totalUs, 0)
const perRequest = (us: number, c: TargetCosts) => us / Math.max(1, c.requests)

// Rounds interleave the targets, so a noisy moment of the shared machine falls on all of them.
const thisTree = TREES.at(-1) ?? { label: 'this tree', server: 'receiver-server-process', sender: 'sender-costs-process' }
const processOf = (t: { server: string; sender: string }) => (SIDE === 'sender' ? t.sender : t.server)
const targets = [{ label: SIDE === 'sender' ? 'bare undici loop' : 'bare node:http', process: processOf(thisTree), target: 'bare' as const }, ...TREES.map((t) => ({ label: `Hookloop, ${t.label}`, process: processOf(t), target: 'hookloop' as const }))]
const rounds: TargetCosts[][] = targets.map(() => [])
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, t] of targets.entries()) rounds[i]!.push(await (SIDE === 'sender' ? measureSender : measure)(t.label, t.process, t.target))
}
// Each target's round of median CPU per request stands for it.
const chosen = rounds.map((runs) => [...runs].sort((a, b) => perRequest(total(a), a) - perRequest(total(b), b))[Math.floor(runs.length / 2)] as TargetCosts)

const heading =
  SIDE === 'sender'
    ? `Where a sent attempt's CPU goes: ${EVENTS} events, each failed 3 times then answered (40 000 attempts), concurrency ${CONCURRENCY}, after a warm-up run, ${ROUNDS} round(s); CPU µs per attempt, by thread and stage (the innermost Hookloop frame's).`
    : `Where a received request's CPU goes: ${DURATION_S} s of load after ${WARMUP_S} s warm-up, 32 connections, Standard Webhooks messages, ${ROUNDS} round(s); CPU µs per request answered 2xx, by thread and stage (the innermost Hookloop frame's).`
const lines: string[] = [heading, '']
const json: Record<string, unknown> = { bench: 'costs', side: SIDE, rounds: ROUNDS }
const bareUs = perRequest(total(chosen[0]!), chosen[0]!)
for (const c of chosen) {
  const all = total(c)
  const us = perRequest(all, c)
  const unit = SIDE === 'sender' ? 'attempt' : 'request'
  lines.push(`${c.label}: ${c.requests} ${unit}s, ${c.rps.toFixed(0)} ${unit}s/s, ${us.toFixed(0)} CPU µs per ${unit} in all threads (${(us / bareUs).toFixed(1)}× bare)`)
  const sampledMain = perRequest(c.threads.find((t) => t.thread === 'main thread')?.totalUs ?? 0, c)
  if (c.onCpu) {
    const main = perRequest(c.onCpu.mainUs, c)
    const other = perRequest(c.onCpu.otherUs, c)
    lines.push(`  on the CPU by the OS's count: main thread ${main.toFixed(0)} µs per ${unit} (sampled ${sampledMain.toFixed(0)}), other threads ${other.toFixed(0)} (sampled ${(us - sampledMain).toFixed(0)}; the OS's count includes V8's helper threads: GC, compiles; not the profiler's)`)
  }
  const rows: string[][] = []
  for (const thread of c.threads) {
    for (const stage of thread.stages) {
      if (stage.us / all < 0.004) continue
      rows.push([`${thread.thread}: ${stage.stage}`, perRequest(stage.us, c).toFixed(1), `${((100 * stage.us) / all).toFixed(1)} %`])
    }
  }
  lines.push(...markdownTable([72, 8, 8], ['stage', `µs/${SIDE === 'sender' ? 'att' : 'req'}`, 'share'], rows), '')
  json[c.label] = {
    requests: c.requests,
    rps: Math.round(c.rps),
    cpu_us: Math.round(us),
    per_round_cpu_us: rounds[chosen.indexOf(c)]!.map((r) => Math.round(perRequest(total(r), r))),
    ...(c.onCpu ? { os_cpu_us: { main: Math.round(perRequest(c.onCpu.mainUs, c)), other: Math.round(perRequest(c.onCpu.otherUs, c)) } } : {}),
    ...(c.onCpu ? { per_round_os_cpu_us: rounds[chosen.indexOf(c)]!.map((r) => Math.round(perRequest((r.onCpu?.mainUs ?? 0) + (r.onCpu?.otherUs ?? 0), r))) } : {}),
    stages: Object.fromEntries(c.threads.flatMap((t) => t.stages.map((st) => [`${t.thread}: ${st.stage}`, Number(perRequest(st.us, c).toFixed(1))]))),
  }
}
process.stdout.write(lines.join('\n') + '\n' + JSON.stringify(json) + '\n')
