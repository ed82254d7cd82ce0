// The readable summary `hookloop run` prints: per delivery every attempt with its time and
// outcome, then each expectation with ✓ or ✗, then one verdict line.
import type { ReportAttempt, ScenarioReport } from '../../../shared/scenario'
import { verdictLine } from '../../../shared/scenario'

/** 0, 850 ms, 30 s, 2 min, 1 h 4 min, 14 h 30 min — exact ms are shown next to it. */
export function humanDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(3))} s`
  const totalSeconds = Math.round(ms / 1000)
  const h = Math.floor(totalSeconds / 3600)
  const m = Math.floor((totalSeconds % 3600) / 60)
  const s = totalSeconds % 60
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean)
  return parts.join(' ')
}

function clockLabel(report: ScenarioReport): string {
  const clock = report.clock
  switch (clock.mode) {
    case 'real':
      return 'real clock'
    case 'scaled':
      return `scaled clock ×${clock.factor}`
    case 'virtual':
      return 'virtual clock'
    default: {
      const unhandled: never = clock
      return String(unhandled)
    }
  }
}

function attemptLine(a: ReportAttempt): string {
  const at = `+${a.at_ms} ms`.padEnd(14)
  const human = `(${a.at_ms === 0 ? '0' : humanDuration(a.at_ms)})`.padEnd(16)
  const parts = [`  #${String(a.n).padEnd(3)}`, at, human, a.outcome.padEnd(20), a.decision]
  if (a.signature !== null) parts.push(`sig ${a.signature}`)
  if (a.duplicate !== null) parts.push(a.duplicate > 1 ? `dup #${a.duplicate}` : 'first arrival')
  if (a.fault) parts.push(`fault ${JSON.stringify(a.fault)}`)
  return parts.join(' ').trimEnd()
}

export function formatSummary(report: ScenarioReport): string {
  const lines: string[] = []
  lines.push(`Scenario: ${report.scenario}${report.file ? ` (${report.file})` : ''}`)
  lines.push(`Ran ${humanDuration(report.clock_ms)} of scenario time on the ${clockLabel(report)} in ${humanDuration(Math.round(report.wall_ms))}.`)
  if (report.tunnel) {
    const { url, host, bypassed_attempts: bypassed } = report.tunnel
    lines.push(`Through the tunnel: loop deliveries went to ${url} (tunnel server ${host})${bypassed ? `; ${bypassed} attempt${bypassed === 1 ? '' : 's'} went straight to the receiver while it was down` : ''}.`)
  }
  if (report.incomplete) lines.push(`! ${report.incomplete}`)
  for (const d of report.deliveries) {
    lines.push('')
    const count = `${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`
    const copy = d.duplicate_of === null ? '' : ` [duplicate copy of delivery ${d.duplicate_of}]`
    const firstAt = d.attempts[0] ? `, first at run +${d.attempts[0].run_ms} ms` : ''
    // A provider's delivery is named as the consumer's log names it, beside Hookloop's own id.
    const seen = d.provider_event_id
    const id = seen && seen.value !== d.event_id ? `${seen.value} (${seen.where}; Hookloop event ${d.event_id})` : seen ? `${seen.value} (${seen.where})` : d.event_id
    lines.push(`${d.event} ${d.event_type} ${id} → ${d.subscription}${d.loop ? ' (loop)' : ''}${copy}: ${d.status} after ${count}${firstAt}`)
    for (const a of d.attempts) {
      lines.push(attemptLine(a))
      // Forward mode: under the attempt, whether your app saw it and what it answered.
      for (const leg of (report.forwards ?? []).filter((l) => a.request_id !== null && l.request_id === a.request_id)) {
        const answer = leg.status === null ? `${leg.outcome}${leg.error ? ` (${leg.error})` : ''}` : `answered ${leg.status}`
        lines.push(`        → ${leg.kind} ${leg.url}: ${answer}${leg.latency_ms === null ? '' : ` in ${leg.latency_ms} ms`}`)
      }
    }
  }
  if (report.endpoints.length) {
    lines.push('')
    for (const e of report.endpoints) {
      const sigs = Object.entries(e.signatures)
        .map(([reason, n]) => `${reason} ×${n}`)
        .join(', ')
      lines.push(`endpoint ${e.slug}: ${e.requests} request${e.requests === 1 ? '' : 's'}, ${e.duplicates_flagged} flagged as duplicate${sigs ? `, signatures ${sigs}` : ''}`)
    }
  }
  if (report.actions.length) {
    lines.push('')
    lines.push('Actions:')
    for (const a of report.actions) lines.push(`  ${a.ok ? '✓' : '✗'} run +${a.at_ms} ms ${a.type}: ${a.message}  [${a.path}]`)
  }
  if (report.expectations.length) {
    lines.push('')
    lines.push('Expectations:')
    for (const e of report.expectations) {
      lines.push(e.ok ? `  ✓ ${e.label} = ${JSON.stringify(e.actual)}` : `  ✗ ${e.label}: ${e.message}  [${e.path}]`)
    }
  }
  lines.push('')
  lines.push(verdictLine(report))
  return lines.join('\n')
}
