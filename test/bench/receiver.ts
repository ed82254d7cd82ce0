// npm run bench:receiver — one run, same load generator and concurrency for each target:
// (a) bare node:http answering 200, (b) mockttp with a 200 rule, (c) Hookloop's receiver
// capturing, verifying a Standard Webhooks signature, deduping and persisting every request.
// Servers and the load generator each run in their own process. Prints a table, then one JSON line.
import { cpus } from 'node:os'
import { CONNECTIONS, DURATION_S, markdownTable, median, pairedRatio, ROUNDS, runRounds, summary, printReport, WARMUP_S } from './load-rig'

const TARGETS = ['bare', 'mockttp', 'hookloop', 'hookloop-breakpoint', 'github-schema-off', 'github-schema-on'] as const
type Target = (typeof TARGETS)[number]

const runs = await runRounds('receiver-server-process', TARGETS)

const of = (t: Target) => summary(runs[t])
/** Server CPU time per request answered (warm-up included on both sides). */
const cpuPerRequest = (t: Target) => median(runs[t].map((m) => (m.stored.cpuUs ?? 0) / Math.max(1, m.answered2xx)))
const ratioBare = pairedRatio(runs.hookloop, runs.bare)
const ratioMockttp = pairedRatio(runs.hookloop, runs.mockttp)
// The schema verdict's cost: the same GitHub deliveries, judged after each answer or not (goal ≥ 0.9).
const schemaOnVsOff = pairedRatio(runs['github-schema-on'], runs['github-schema-off'])
const breakpointVsNone = pairedRatio(runs['hookloop-breakpoint'], runs.hookloop)
const schemaJudged = runs['github-schema-on'].reduce((sum, m) => sum + (m.stored.schema_valid ?? 0), 0)
const schemaRows = runs['github-schema-on'].reduce((sum, m) => sum + (m.stored.rows ?? 0), 0)
const hookRuns = runs.hookloop
const answered = hookRuns.reduce((sum, m) => sum + m.answered2xx, 0)
const rows = hookRuns.reduce((sum, m) => sum + (m.stored.rows ?? 0), 0)
const valid = hookRuns.reduce((sum, m) => sum + (m.stored.valid ?? 0), 0)
const everyAnswerOnDisk = hookRuns.every((m) => (m.stored.rows ?? 0) >= m.answered2xx)

const row = (name: string, t: Target) => [name, of(t).rps.toFixed(0), of(t).p99.toFixed(1), runs[t].map((m) => m.load.rps.toFixed(0)).join(' / '), cpuPerRequest(t).toFixed(0), String(of(t).errors)]
const table = [
  `Receiver benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${DURATION_S} s per target (after ${WARMUP_S} s warm-up each); ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  '',
  ...markdownTable(
    [50, 7, 6, 20, 9, 6],
    ['target', 'req/s', 'p99 ms', 'req/s per round', 'CPU µs/req', 'errors'],
    [
      row('(a) bare node:http, 200', 'bare'),
      row('(b) mockttp, rule answers 200', 'mockttp'),
      row('(c) Hookloop: capture, verify, dedupe, SQLite', 'hookloop'),
      row('(c′) the same, a breakpoint matching nothing', 'hookloop-breakpoint'),
      row('(d) Hookloop, GitHub deliveries, schema off', 'github-schema-off'),
      row('(e) Hookloop, GitHub deliveries, schema on', 'github-schema-on'),
    ],
  ),
  '',
  `(c)/(a) = ${ratioBare.toFixed(2)} (target ≥ 0.5)   (c)/(b) = ${ratioMockttp.toFixed(2)} (target > 1)   medians of the per-round ratios over ${ROUNDS} rounds`,
  `Server CPU per request: (a)/(c) = ${(cpuPerRequest('bare') / cpuPerRequest('hookloop')).toFixed(2)}, (b)/(c) = ${(cpuPerRequest('mockttp') / cpuPerRequest('hookloop')).toFixed(2)} (above 1 = Hookloop is cheaper)`,
  `A breakpoint that matches nothing (c′)/(c) = ${breakpointVsNone.toFixed(2)} (target ≥ 0.95)`,
  `Schema verdict on / off (e)/(d) = ${schemaOnVsOff.toFixed(2)} (target ≥ 0.9); with it on, ${schemaJudged} of ${schemaRows} GitHub deliveries judged valid against GitHub's webhooks document by the end of the runs.`,
  `Hookloop: ${answered} requests answered 2xx, ${rows} rows on disk (${everyAnswerOnDisk ? 'every answered request stored' : 'ROWS MISSING'}), ${valid} with a valid Standard Webhooks signature.`,
]
printReport('receiver', table, TARGETS, of, { bare: ratioBare, mockttp: ratioMockttp }, {
  cpu_us: { bare: Math.round(cpuPerRequest('bare')), mockttp: Math.round(cpuPerRequest('mockttp')), hookloop: Math.round(cpuPerRequest('hookloop')), 'hookloop-breakpoint': Math.round(cpuPerRequest('hookloop-breakpoint')) },
  hookloop_answered_2xx: answered,
  hookloop_rows_on_disk: rows,
  hookloop_valid_signatures: valid,
  schema_on_vs_off: Number(schemaOnVsOff.toFixed(3)),
  breakpoint_vs_none: Number(breakpointVsNone.toFixed(3)),
  schema_judged_valid: schemaJudged,
  schema_rows: schemaRows,
})
if (!everyAnswerOnDisk) process.exitCode = 1
