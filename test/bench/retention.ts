// npm run bench:retention — capture rate while retention prunes, against capture alone, in one
// run: Hookloop's receiver (capture thread, verify, dedupe, SQLite) on a store pre-filled with old
// captures: (a) capturing only; (b) steady state: retention at the store's size limit, each pass
// deleting what came in since the last; (c) a 30 000-row backlog pruned during the load (freed
// pages reused, the excess given back after each pass); (d) the backlog with every freed page
// given back as it goes (what Clear history does). Same load generator as bench:receiver, each in a
// process of its own; targets interleaved in rounds. Prints a table, then one JSON line.
import { cpus } from 'node:os'
import { CONNECTIONS, DURATION_S, median, ROUNDS, runRounds, WARMUP_S } from './load-rig'

const TARGETS = ['capture', 'steady', 'backlog', 'backlog-give-back-all'] as const
type Target = (typeof TARGETS)[number]

const runs = await runRounds('retention-server-process', TARGETS)

const rps = (t: Target) => median(runs[t].map((m) => m.load.rps))
const p99 = (t: Target) => median(runs[t].map((m) => m.load.p99))
const stat = (t: Target, key: string) => median(runs[t].map((m) => m.stored[key] ?? 0))
const ratio = (t: Target) => median(runs[t].map((m, i) => m.load.rps / (runs.capture[i]?.load.rps ?? Number.NaN)))
const everyAnswerOnDisk = TARGETS.every((t) => runs[t].every((m) => (m.stored.rows ?? 0) >= m.answered2xx))
const errors = (t: Target) => runs[t].reduce((sum, m) => sum + m.load.non2xx + m.load.errors + m.load.timeouts, 0)
const mb = (bytes: number) => (bytes / 1e6).toFixed(0)

const row = (name: string, t: Target) =>
  `| ${name.padEnd(44)} | ${rps(t).toFixed(0).padStart(6)} | ${(t === 'capture' ? '1' : ratio(t).toFixed(2)).padStart(5)} | ${p99(t).toFixed(0).padStart(6)} | ${runs[t].map((m) => m.load.rps.toFixed(0)).join(' / ').padStart(20)} | ${String(stat(t, 'pruned')).padStart(7)} | ${`${mb(stat(t, 'prefilledBytes'))} → ${mb(stat(t, 'fileBytes'))}`.padStart(11)} | ${String(errors(t)).padStart(6)} |`
const table = [
  `Retention benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per target (after ${WARMUP_S} s warm-up each); store pre-filled with ${process.env.BENCH_PREFILL_ROWS ?? 60000} old captures; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  `| ${'target'.padEnd(44)} | ${'req/s'.padStart(6)} | ${'ratio'.padStart(5)} | ${'p99 ms'.padStart(6)} | ${'req/s per round'.padStart(20)} | ${'pruned'.padStart(7)} | ${'file MB'.padStart(11)} | ${'errors'.padStart(6)} |`,
  `|${'-'.repeat(46)}|${'-'.repeat(8)}|${'-'.repeat(7)}|${'-'.repeat(8)}|${'-'.repeat(22)}|${'-'.repeat(9)}|${'-'.repeat(13)}|${'-'.repeat(8)}|`,
  row('(a) capture only', 'capture'),
  row('(b) steady: each pass prunes the inflow', 'steady'),
  row('(c) backlog of 30 000 rows pruned', 'backlog'),
  row('(d) backlog, every freed page given back', 'backlog-give-back-all'),
  '',
  `(b)/(a) = ${ratio('steady').toFixed(2)} (target ≥ 0.8)   (c)/(a) = ${ratio('backlog').toFixed(2)}   (d)/(a) = ${ratio('backlog-give-back-all').toFixed(2)}   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Every request answered 2xx is on disk: ${everyAnswerOnDisk ? 'yes' : 'NO, ROWS MISSING'}.`,
]
process.stdout.write(table.join('\n') + '\n')
process.stdout.write(
  JSON.stringify({
    bench: 'retention',
    rps: Object.fromEntries(TARGETS.map((t) => [t, Math.round(rps(t))])),
    p99_ms: Object.fromEntries(TARGETS.map((t) => [t, p99(t)])),
    ratio: Object.fromEntries(TARGETS.filter((t) => t !== 'capture').map((t) => [t, Number(ratio(t).toFixed(3))])),
    pruned_rows: Object.fromEntries(TARGETS.map((t) => [t, stat(t, 'pruned')])),
    file_mb: { prefilled: Number(mb(stat('capture', 'prefilledBytes'))), ...Object.fromEntries(TARGETS.map((t) => [t, Number(mb(stat(t, 'fileBytes')))])) },
    every_answer_on_disk: everyAnswerOnDisk,
  }) + '\n',
)
if (!everyAnswerOnDisk) process.exitCode = 1
