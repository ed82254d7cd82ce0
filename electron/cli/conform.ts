// `hookloop conform [--data DIR] --endpoint SLUG --policy NAME|FILE [--tolerance-ms N]
// [--tolerance-pct P] [--report OUT.json] [--as-of ISO]`: judges a provider's deliveries to one of
// our endpoints against its documented retry policy. 0 every check passes (or is pending/skipped),
// 1 one fails, 2 bad usage or a data folder/endpoint that is not there.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { DEFAULT_SENDER_TOLERANCE, type SenderCheckStatus, type SenderConformanceReport } from '../../shared/conformance'
import { checkSenderConformance, UnknownEndpointError } from '../engine/conformance'
import { openDatabase } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import type { Command } from './commands'
import { policyArg } from './policy-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop conform [--data DIR] --endpoint SLUG --policy NAME|FILE [options]

Compares the requests a provider delivered to an endpoint (grouped per event) with the retry
policy it documents: intervals, stop after success, stop after a final outcome (4xx), redirects
not followed, attempt count.
{options}
Exit status: 0 no check fails, 1 a check fails, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (DIR/hookloop.db) that captured the requests (${DATA_DIR_DEFAULT_HELP})` },
  endpoint: { type: 'string', value: 'SLUG', help: 'the endpoint (/h/SLUG)' },
  policy: { type: 'string', value: 'NAME|FILE', help: 'a preset (pandoktorek, csku, stripe, …) or a JSON policy spec file' },
  'tolerance-ms': { type: 'number', min: 0, default: DEFAULT_SENDER_TOLERANCE.ms, value: 'N', help: 'allowed difference per interval in ms' },
  'tolerance-pct': { type: 'number', min: 0, default: DEFAULT_SENDER_TOLERANCE.pct, value: 'P', help: 'or P % of the expected delay, whichever is larger' },
  'as-of': { type: 'string', value: 'ISO', help: '"now" for attempts not yet due (default: the current time)' },
  report: { type: 'string', value: 'OUT.json', help: 'also write the full report as JSON' },
  json: { type: 'boolean', help: 'print the full report as JSON instead of the summary' },
} as const satisfies OptionSpecs

const MARK: Record<SenderCheckStatus, string> = { pass: 'PASS', fail: 'FAIL', skip: 'skip', pending: 'wait' }

export function formatSenderReport(report: SenderConformanceReport): string {
  const lines = [`Endpoint /h/${report.endpoint} against policy ${report.policy} (±${report.tolerance.ms} ms or ${report.tolerance.pct} %)`]
  if (report.events.length === 0) lines.push('  no requests captured on this endpoint')
  for (const event of report.events) {
    lines.push(`${event.ok ? 'ok  ' : 'FAIL'} ${event.key_source === 'request' ? event.key : `${event.key_source.replace('_', ' ')} ${event.key}`}: ${event.arrivals.length} attempt(s) — ${event.arrivals.map((a) => a.outcome).join(', ')}`)
    for (const check of event.checks) if (check.status !== 'skip') lines.push(`    ${MARK[check.status]} ${check.title}: ${check.detail}`)
  }
  const failed = report.events.filter((e) => !e.ok).length
  lines.push(`${report.ok ? 'PASSED' : 'FAILED'}: ${report.events.length} event(s), ${failed} with a failing check`)
  return lines.join('\n')
}

export const conformCommand: Command = async (args) => {
  const parsed = commandArgs('conform', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  if (!v.endpoint || !v.policy) throw new UsageError('conform: --endpoint and --policy are required (hookloop conform --help)')
  const policy = policyArg('conform', v.policy)
  const tolerance = { ms: v['tolerance-ms'], pct: v['tolerance-pct'] }
  const { file } = existingStoreFile('conform', v.data)
  const asOf = v['as-of'] === undefined ? Date.now() : Date.parse(v['as-of'])
  if (Number.isNaN(asOf)) throw new UsageError(`conform: --as-of must be an ISO 8601 date-time, got "${v['as-of']}"`)

  const db = openDatabase({ file })
  let report: SenderConformanceReport
  try {
    report = await checkSenderConformance(db, { endpoint: v.endpoint, policy, tolerance, asOf })
  } catch (error) {
    if (error instanceof UnknownEndpointError) throw new UsageError(`conform: ${error.message}`)
    throw error
  } finally {
    db.close()
  }
  process.stdout.write(v.json ? JSON.stringify(report, null, 2) + '\n' : formatSenderReport(report) + '\n')
  if (v.report) {
    mkdirSync(dirname(resolve(v.report)), { recursive: true })
    writeFileSync(v.report, JSON.stringify(report, null, 2) + '\n')
  }
  return report.ok ? 0 : 1
}
