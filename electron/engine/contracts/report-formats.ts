// A contract report for people and tools: a text table for a terminal, markdown for a GitHub job
// summary, JUnit XML for CI (one testcase per operation: failed on a breaking difference, skipped
// when no traffic reached it). The JSON form is the report itself. What Hookloop's own sender
// published is a section of its own ("sent by Hookloop"), by event id, when there is any.
import { escapeXmlAttribute, escapeXmlText } from '../scenarios'
import type { ContractReport, Finding, OperationReport } from './check'
import type { SentFinding, SentOperationReport, SentReport } from './sent'

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const listed = (list: readonly string[], max = 12) => list.slice(0, max).join(', ') + (list.length > max ? ` … (${list.length} in all)` : '')
const ids = (list: readonly number[], max = 12) => listed(list.map((id) => `#${id}`), max)

const COLUMNS = ['KIND', 'POINTER', 'EXPECTED', 'CAME', 'SPEC SAYS', 'REQUESTS'] as const
const SENT_COLUMNS = ['KIND', 'POINTER', 'EXPECTED', 'CAME', 'SPEC SAYS', 'EVENTS'] as const

const findingCells = (f: Finding | SentFinding, who: string): string[] => [f.breaking ? `${f.kind} (breaking)` : f.kind, f.pointer || '/', f.expected, f.got, f.schemaSays, who]
const cells = (f: Finding) => findingCells(f, ids(f.requestIds))
const sentCells = (f: SentFinding) => findingCells(f, listed(f.eventIds))

function table(rows: string[][], columns: readonly string[] = COLUMNS): string[] {
  const all = [[...columns], ...rows]
  const widths = columns.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all.map((row) => '  ' + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
}

/** The sent section is shown when the sender published anything. */
const sentOf = (r: ContractReport): SentReport | null => (r.sentByHookloop && r.sentByHookloop.events.read > 0 ? r.sentByHookloop : null)

/** Breaking differences in the traffic and in what Hookloop sent: what the exit status follows. */
export const reportBreaking = (r: ContractReport): number => r.breaking + (r.sentByHookloop?.breaking ?? 0)

function sentHead(o: SentOperationReport): string {
  return `${o.name} (${o.where}): ${plural(o.eventIds.length, 'event')} (${listed(o.eventIds)}), ${o.breaking === 0 ? 'nothing breaking' : plural(o.breaking, 'breaking difference')}`
}

function sentLine(s: SentReport): string {
  const unknown = s.unknownEventTypes.reduce((n, u) => n + u.eventIds.length, 0)
  return `${plural(s.events.read, 'event')} read: ${s.events.matched} matched to the spec's operations, ${unknown} of event types it does not name.`
}

function operationHead(o: OperationReport): string {
  if (o.requestIds.length === 0) return `${o.name} (${o.where}): no traffic`
  return `${o.name} (${o.where}): ${plural(o.requestIds.length, 'request')} (${ids(o.requestIds)}), ${o.breaking === 0 ? 'nothing breaking' : plural(o.breaking, 'breaking difference')}`
}

/** The last line: what the exit status follows. */
export function reportVerdict(r: ContractReport): string {
  const parts = [
    plural(r.breaking, 'breaking difference'),
    plural(r.undocumented, 'undocumented field'),
    plural(r.unseenEventTypes, 'event type', 'event types') + ' the traffic never showed',
    plural(r.unknownEventTypes.length, 'event type', 'event types') + ' the spec does not name',
  ]
  const sent = sentOf(r)
  if (sent) parts.push(`${plural(sent.breaking, 'breaking difference')} in what Hookloop sent`)
  return `${reportBreaking(r) > 0 ? 'BREAKING' : 'OK'}: ${parts.join(', ')}.`
}

function trafficLine(r: ContractReport): string {
  const unknown = r.unknownEventTypes.reduce((n, u) => n + u.requestIds.length, 0)
  return `${plural(r.traffic.read, 'request')} read: ${r.traffic.matched} matched to the spec's ${plural(r.operations.length, 'operation')}, ${unknown} of event types it does not name, ${r.unmatchedRequestIds.length} with no event type, ${r.traffic.skipped} without a body (not checked).`
}

export function formatReportText(r: ContractReport): string {
  const lines = [`${r.spec.title} ${r.spec.version} (${r.spec.format}): ${r.spec.location}`, trafficLine(r), '']
  for (const o of r.operations) {
    lines.push(operationHead(o))
    if (o.findings.length > 0) lines.push(...table(o.findings.map(cells)))
    if (o.requestIds.length > 0 && o.unseenEventTypes.length > 0) lines.push(`  never seen: ${o.unseenEventTypes.join(', ')}`)
    for (const note of o.notes) lines.push(`  note: ${note}`)
    lines.push('')
  }
  if (r.unknownEventTypes.length > 0) {
    lines.push('Event types the spec does not name:')
    for (const u of r.unknownEventTypes) lines.push(`  ${u.eventType}: ${ids(u.requestIds)}`)
    lines.push('')
  }
  if (r.unmatchedRequestIds.length > 0) lines.push(`Requests with no event type, at no endpoint of the spec: ${ids(r.unmatchedRequestIds)}`, '')
  const sent = sentOf(r)
  if (sent) {
    lines.push(`Sent by Hookloop: ${sentLine(sent)}`, '')
    for (const o of sent.operations) {
      lines.push(sentHead(o))
      if (o.findings.length > 0) lines.push(...table(o.findings.map(sentCells), SENT_COLUMNS))
      for (const note of o.notes) lines.push(`  note: ${note}`)
      lines.push('')
    }
    for (const u of sent.unknownEventTypes) lines.push(`  not in the spec: ${u.eventType}: ${listed(u.eventIds)}`)
    if (sent.unknownEventTypes.length > 0) lines.push('')
  }
  lines.push(reportVerdict(r))
  return lines.join('\n') + '\n'
}

const md = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (text: string) => (text.includes('`') ? md(text) : `\`${md(text)}\``)

export function formatReportMarkdown(r: ContractReport): string {
  const lines = [`### Contract check: ${md(r.spec.title)} ${md(r.spec.version)} (${md(r.spec.format)})`, '', `**${md(reportVerdict(r))}**`, '', md(trafficLine(r)), '']
  for (const o of r.operations) {
    lines.push(`#### ${o.breaking > 0 ? '❌' : o.requestIds.length === 0 ? '⚪' : '✅'} ${md(operationHead(o))}`, '')
    if (o.findings.length > 0) {
      lines.push('| Kind | Pointer | Expected | Came | Spec says | Requests |', '| --- | --- | --- | --- | --- | --- |')
      for (const f of o.findings) {
        const [kind, pointer, expected, got, says, requests] = cells(f)
        lines.push(`| ${f.breaking ? `**${md(kind!)}**` : md(kind!)} | ${code(pointer!)} | ${md(expected!)} | ${code(got!)} | ${md(says!)} | ${md(requests!)} |`)
      }
      lines.push('')
    }
    if (o.requestIds.length > 0 && o.unseenEventTypes.length > 0) lines.push(`Never seen: ${o.unseenEventTypes.map(code).join(', ')}`, '')
    for (const note of o.notes) lines.push(`> ${md(note)}`, '')
  }
  if (r.unknownEventTypes.length > 0) {
    lines.push('#### Event types the spec does not name', '')
    for (const u of r.unknownEventTypes) lines.push(`- ${code(u.eventType)}: ${ids(u.requestIds)}`)
    lines.push('')
  }
  if (r.unmatchedRequestIds.length > 0) lines.push(`Requests with no event type, at no endpoint of the spec: ${ids(r.unmatchedRequestIds)}`, '')
  const sent = sentOf(r)
  if (sent) {
    lines.push('#### Sent by Hookloop', '', md(sentLine(sent)), '')
    for (const o of sent.operations) {
      lines.push(`##### ${o.breaking > 0 ? '❌' : '✅'} ${md(sentHead(o))}`, '')
      if (o.findings.length > 0) {
        lines.push('| Kind | Pointer | Expected | Came | Spec says | Events |', '| --- | --- | --- | --- | --- | --- |')
        for (const f of o.findings) {
          const [kind, pointer, expected, got, says, events] = sentCells(f)
          lines.push(`| ${f.breaking ? `**${md(kind!)}**` : md(kind!)} | ${code(pointer!)} | ${md(expected!)} | ${code(got!)} | ${md(says!)} | ${md(events!)} |`)
        }
        lines.push('')
      }
      for (const note of o.notes) lines.push(`> ${md(note)}`, '')
    }
    for (const u of sent.unknownEventTypes) lines.push(`- not in the spec: ${code(u.eventType)}: ${md(listed(u.eventIds))}`)
    if (sent.unknownEventTypes.length > 0) lines.push('')
  }
  return lines.join('\n') + '\n'
}

function findingLine(f: Finding | SentFinding): string {
  const who = 'eventIds' in f ? f.eventIds.map((id) => `event ${id}`) : f.requestIds.map((id) => `request #${id}`)
  return `${who.join(', ')} ${f.pointer || '/'}: ${f.kind}: expected ${f.expected}, came ${f.got} (${f.schemaSays})`
}

/**
 * One <testsuite> for the spec, one <testcase> per operation: a <failure> listing its breaking
 * findings, <skipped/> when no traffic reached it. What is reported but not failed goes to the
 * suite's <system-out>. The layout satisfies the strict Ant schema (a testcase holds one child;
 * properties, system-out and system-err in that order; id and package on the suite) and Jenkins'.
 */
export function formatReportJUnit(r: ContractReport, now: number): string {
  const sent = sentOf(r)
  const sentCases = sent?.operations ?? []
  const failures = r.operations.filter((o) => o.breaking > 0).length + sentCases.filter((o) => o.breaking > 0).length
  const skipped = r.operations.filter((o) => o.requestIds.length === 0).length
  const suite = `${r.spec.title} ${r.spec.version}`.trim()
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>']
  out.push(
    `  <testsuite name="${escapeXmlAttribute(suite)}" package="hookloop.contract" id="0" timestamp="${new Date(now).toISOString().slice(0, 19)}" hostname="localhost" tests="${r.operations.length + sentCases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0.000">`,
  )
  out.push('    <properties>', `      <property name="spec" value="${escapeXmlAttribute(r.spec.location)}"/>`, `      <property name="format" value="${escapeXmlAttribute(r.spec.format)}"/>`, '    </properties>')
  const info: string[] = []
  for (const o of r.operations) {
    const head = `    <testcase name="${escapeXmlAttribute(o.name)}" classname="${escapeXmlAttribute(suite)}" time="0.000"`
    const breaking = o.findings.filter((f) => f.breaking)
    if (breaking.length > 0) {
      out.push(`${head}>`, `      <failure type="breaking" message="${escapeXmlAttribute(plural(breaking.length, 'breaking difference'))}">${escapeXmlText(breaking.map(findingLine).join('\n'))}</failure>`, '    </testcase>')
    } else if (o.requestIds.length === 0) {
      out.push(`${head}>`, `      <skipped message="${escapeXmlAttribute(`no traffic: ${o.eventTypes.join(', ')} never seen`)}"/>`, '    </testcase>')
    } else out.push(`${head}/>`)
    info.push(...o.findings.filter((f) => !f.breaking).map((f) => `${o.name}: ${findingLine(f)}`), ...o.notes.map((n) => `${o.name}: ${n}`))
  }
  // What Hookloop's sender published: a testcase per operation it sent events of, named so.
  for (const o of sentCases) {
    const name = `sent by Hookloop: ${o.name}`
    const head = `    <testcase name="${escapeXmlAttribute(name)}" classname="${escapeXmlAttribute(suite)}" time="0.000"`
    const breaking = o.findings.filter((f) => f.breaking)
    if (breaking.length > 0) {
      out.push(`${head}>`, `      <failure type="breaking" message="${escapeXmlAttribute(plural(breaking.length, 'breaking difference'))}">${escapeXmlText(breaking.map(findingLine).join('\n'))}</failure>`, '    </testcase>')
    } else out.push(`${head}/>`)
    info.push(...o.findings.filter((f) => !f.breaking).map((f) => `${name}: ${findingLine(f)}`), ...o.notes.map((n) => `${name}: ${n}`))
  }
  info.push(...(sent?.unknownEventTypes ?? []).map((u) => `sent by Hookloop, an event type the spec does not name: ${u.eventType} (${listed(u.eventIds)})`))
  info.push(...r.unknownEventTypes.map((u) => `event type the spec does not name: ${u.eventType} (${ids(u.requestIds)})`))
  if (r.unmatchedRequestIds.length > 0) info.push(`requests with no event type: ${ids(r.unmatchedRequestIds)}`)
  info.push(reportVerdict(r))
  out.push(`    <system-out>${escapeXmlText(info.join('\n'))}</system-out>`, '    <system-err></system-err>', '  </testsuite>', '</testsuites>')
  return out.join('\n') + '\n'
}
