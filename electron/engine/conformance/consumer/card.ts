// The report card `hookloop check` prints: a line per check with ✓ / ! / ✗ / –, the detail, and
// for anything not passed cleanly why it matters and how to fix it; then one verdict line.
import type { CheckSeverity, ConsumerCheckResult } from '../../../../shared/conformance'

export function severityMark(severity: CheckSeverity): string {
  switch (severity) {
    case 'pass':
      return '✓'
    case 'warn':
      return '!'
    case 'fail':
      return '✗'
    case 'skip':
      return '–'
    default: {
      const never: never = severity
      return String(never)
    }
  }
}

export function formatReportCard(result: ConsumerCheckResult): string {
  const lines: string[] = []
  const what = [result.handshake === null ? null : `${result.handshake} handshake`, result.scheme === null ? null : `${result.scheme}, timeout ${result.timeout_ms} ms`].filter((part) => part !== null)
  lines.push(`Consumer check: ${result.url} (${what.join('; ')})`)
  lines.push('')
  for (const c of result.checks) {
    lines.push(`${severityMark(c.severity)} ${c.title}: ${c.detail}`)
    if (c.severity === 'fail' || c.severity === 'warn') {
      lines.push(`    why: ${c.why}`)
      lines.push(`    fix: ${c.fix}`)
    }
  }
  lines.push('')
  const failed = result.checks.filter((c) => c.severity === 'fail').length
  const warned = result.checks.filter((c) => c.severity === 'warn').length
  const graded = result.checks.filter((c) => c.severity !== 'skip').length
  const warnings = warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''
  lines.push(result.ok ? `PASS: ${graded} of ${graded} checks pass${warnings}` : `FAIL: ${failed} of ${graded} checks failed${warnings}`)
  return lines.join('\n')
}
