// npm run bench:receiver — one run, same load generator and concurrency for each target:
// (a) bare node:http answering 200, (b) mockttp with a 200 rule, (c) Hookloop's receiver
// capturing, verifying a Standard Webhooks signature, deduping and persisting every request.
// Servers and the load generator each run in their own process. Prints a table, then one JSON line.
import { cpus } from 'node:os'
import { CONNECTIONS, DURATION_S, median, ROUNDS, runRounds, WARMUP_S } from './load-rig'

const TARGETS = ['bare', 'mockttp', 'hookloop'] as const
type Target = (typeof TARGETS)[number]

const runs = await runRounds('receiver-server-process', TARGETS)

const rps = (t: Target) => median(runs[t].map((m) => m.load.rps))
const p99 = (t: Target) => median(runs[t].map((m) => m.load.p99))
const errors = (t: Target) => runs[t].reduce((sum, m) => sum + m.load.non2xx + m.load.errors + m.load.timeouts, 0)
/** Server CPU time per request answered (warm-up included on both sides). */
const cpuPerRequest = (t: Target) => median(runs[t].map((m) => (m.stored.cpuUs ?? 0) / Math.max(1, m.answered2xx)))
// Ratios are taken round by round (the three runs of a round are minutes apart at most, so they
// share the machine's load of the moment), then the median over rounds.
const pairedRatio = (over: Target) => median(runs.hookloop.map((m, i) => m.load.rps / (runs[over][i]?.load.rps ?? Number.NaN)))
const ratioBare = pairedRatio('bare')
const ratioMockttp = pairedRatio('mockttp')
const hookRuns = runs.hookloop
const answered = hookRuns.reduce((sum, m) => sum + m.answered2xx, 0)
const rows = hookRuns.reduce((sum, m) => sum + (m.stored.rows ?? 0), 0)
const valid = hookRuns.reduce((sum, m) => sum + (m.stored.valid ?? 0), 0)
const everyAnswerOnDisk = hookRuns.every((m) => (m.stored.rows ?? 0) >= m.answered2xx)

const row = (name: string, t: Target) =>
  `| ${name.padEnd(50)} | ${rps(t).toFixed(0).padStart(7)} | ${p99(t).toFixed(1).padStart(6)} | ${runs[t].map((m) => m.load.rps.toFixed(0)).join(' / ').padStart(20)} | ${cpuPerRequest(t).toFixed(0).padStart(9)} | ${String(errors(t)).padStart(6)} |`
const table = [
  `Receiver benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per target (after ${WARMUP_S} s warm-up each); ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  `| ${'target'.padEnd(50)} | ${'req/s'.padStart(7)} | ${'p99 ms'.padStart(6)} | ${'req/s per round'.padStart(20)} | ${'CPU µs/req'.padStart(9)} | ${'errors'.padStart(6)} |`,
  `|${'-'.repeat(52)}|${'-'.repeat(9)}|${'-'.repeat(8)}|${'-'.repeat(22)}|${'-'.repeat(11)}|${'-'.repeat(8)}|`,
  row('(a) bare node:http, 200', 'bare'),
  row('(b) mockttp, rule answers 200', 'mockttp'),
  row('(c) Hookloop: capture, verify, dedupe, SQLite', 'hookloop'),
  '',
  `(c)/(a) = ${ratioBare.toFixed(2)} (target ≥ 0.5)   (c)/(b) = ${ratioMockttp.toFixed(2)} (target > 1)   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Server CPU per request: (a)/(c) = ${(cpuPerRequest('bare') / cpuPerRequest('hookloop')).toFixed(2)}, (b)/(c) = ${(cpuPerRequest('mockttp') / cpuPerRequest('hookloop')).toFixed(2)} (above 1 = Hookloop is cheaper)`,
  `Hookloop: ${answered} requests answered 2xx, ${rows} rows on disk (${everyAnswerOnDisk ? 'every answered request stored' : 'ROWS MISSING'}), ${valid} with a valid Standard Webhooks signature.`,
]
process.stdout.write(table.join('\n') + '\n')
process.stdout.write(
  JSON.stringify({
    bench: 'receiver',
    rps: { bare: Math.round(rps('bare')), mockttp: Math.round(rps('mockttp')), hookloop: Math.round(rps('hookloop')) },
    p99_ms: { bare: p99('bare'), mockttp: p99('mockttp'), hookloop: p99('hookloop') },
    ratio_vs_bare: Number(ratioBare.toFixed(3)),
    ratio_vs_mockttp: Number(ratioMockttp.toFixed(3)),
    cpu_us_per_request: { bare: Math.round(cpuPerRequest('bare')), mockttp: Math.round(cpuPerRequest('mockttp')), hookloop: Math.round(cpuPerRequest('hookloop')) },
    hookloop_answered_2xx: answered,
    hookloop_rows_on_disk: rows,
    hookloop_valid_signatures: valid,
  }) + '\n',
)
if (!everyAnswerOnDisk) process.exitCode = 1
