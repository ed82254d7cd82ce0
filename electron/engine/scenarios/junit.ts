// JUnit XML for CI systems (Jenkins, GitLab, GitHub Actions report publishers): one <testsuite>
// per scenario file, one <testcase> per expectation (and per panel action, and one for a run that
// did not settle), a <failure> with expected vs actual. A file that is not a valid scenario or
// could not run is a suite with one <error>. The layout satisfies both the Ant schema (strict:
// properties, system-out and system-err in that order, timestamp without zone, id and package on
// every suite) and Jenkins' junit-10.xsd; test/fixtures/junit/ holds both.
import type { ScenarioReport } from '../../../shared/scenario'
import { formatSummary } from './summary'

/** What happened to one scenario file of a `hookloop run`. */
export type ScenarioFileResult =
  | { kind: 'ran'; file: string; startedAt: number; report: ScenarioReport }
  /** Unreadable, not JSON, or not a valid scenario: one line per problem, each naming its path. */
  | { kind: 'invalid'; file: string; startedAt: number; problems: string[] }
  /** Valid, but the run threw before it could report. */
  | { kind: 'error'; file: string; startedAt: number; message: string; wallMs: number }

export interface JUnitOptions {
  /** Written on every suite; CI shows it beside the results. Default "localhost". */
  hostname?: string
}

interface Case {
  name: string
  timeS: number
  failure?: { type: string; message: string; text: string }
  error?: { type: string; message: string; text: string }
}

// XML 1.0 allows neither most C0 control characters nor lone surrogates, even escaped: drop them.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

export function escapeXmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Attribute values also escape quotes and keep line breaks (a parser turns raw ones into spaces). */
export function escapeXmlAttribute(value: string): string {
  return escapeXmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}

/** Seconds with millisecond precision, the way Ant writes `time`. */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3)
}

/** Ant's timestamp: ISO 8601 to the second, no zone (the schema forbids one); UTC. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19)
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value)
}

function reportCases(report: ScenarioReport): Case[] {
  const cases: Case[] = []
  for (const e of report.expectations) {
    cases.push({
      name: `${e.label} [${e.path}]`,
      timeS: 0,
      ...(e.ok ? {} : { failure: { type: 'expectation', message: e.message || `expected ${show(e.expected)}, got ${show(e.actual)}`, text: `expected: ${show(e.expected)}\nactual:   ${show(e.actual)}\nat:       ${e.path}` } }),
    })
  }
  for (const a of report.actions) {
    cases.push({ name: `action ${a.type} at run +${a.at_ms} ms [${a.path}]`, timeS: 0, ...(a.ok ? {} : { failure: { type: 'action', message: a.message, text: a.message } }) })
  }
  if (report.incomplete) cases.push({ name: 'the run settles', timeS: 0, failure: { type: 'incomplete', message: report.incomplete, text: report.incomplete } })
  return cases
}

function casesOf(result: ScenarioFileResult): Case[] {
  switch (result.kind) {
    case 'ran':
      return reportCases(result.report)
    case 'invalid':
      return [{ name: 'the scenario file is valid', timeS: 0, error: { type: 'invalid-scenario', message: `${result.file} is not a valid scenario`, text: result.problems.join('\n') } }]
    case 'error':
      return [{ name: 'the scenario runs', timeS: result.wallMs / 1000, error: { type: 'run-error', message: result.message, text: result.message } }]
    default: {
      const never: never = result
      throw new Error(`unknown scenario result ${JSON.stringify(never)}`)
    }
  }
}

function suiteName(result: ScenarioFileResult): string {
  const name = result.kind === 'ran' ? result.report.scenario : result.file
  // The Ant schema wants a non-empty token.
  return name.trim() === '' ? result.file || 'scenario' : name
}

function suiteXml(result: ScenarioFileResult, id: number, hostname: string): string {
  const cases = casesOf(result)
  const name = suiteName(result)
  const failures = cases.filter((c) => c.failure).length
  const errors = cases.filter((c) => c.error).length
  const wallMs = result.kind === 'ran' ? result.report.wall_ms : result.kind === 'error' ? result.wallMs : 0
  const attr = escapeXmlAttribute
  const lines: string[] = []
  lines.push(
    `  <testsuite name="${attr(name)}" package="hookloop.scenarios" id="${id}" timestamp="${timestamp(result.startedAt)}" hostname="${attr(hostname)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(wallMs)}">`,
  )
  lines.push('    <properties>')
  lines.push(`      <property name="file" value="${attr(result.file)}"/>`)
  if (result.kind === 'ran') {
    lines.push(`      <property name="clock" value="${attr(result.report.clock.mode)}"/>`)
    lines.push(`      <property name="scenario_clock_ms" value="${result.report.clock_ms}"/>`)
  }
  lines.push('    </properties>')
  for (const c of cases) {
    const head = `    <testcase name="${attr(c.name)}" classname="${attr(name)}" time="${c.timeS.toFixed(3)}"`
    const problem = c.failure ? { tag: 'failure', ...c.failure } : c.error ? { tag: 'error', ...c.error } : null
    if (!problem) {
      lines.push(`${head}/>`)
      continue
    }
    lines.push(`${head}>`)
    lines.push(`      <${problem.tag} type="${attr(problem.type)}" message="${attr(problem.message)}">${escapeXmlText(problem.text)}</${problem.tag}>`)
    lines.push('    </testcase>')
  }
  const out = result.kind === 'ran' ? formatSummary(result.report) : ''
  const err = result.kind === 'invalid' ? result.problems.join('\n') : result.kind === 'error' ? result.message : ''
  lines.push(`    <system-out>${escapeXmlText(out)}</system-out>`)
  lines.push(`    <system-err>${escapeXmlText(err)}</system-err>`)
  lines.push('  </testsuite>')
  return lines.join('\n')
}

/** The whole document: <testsuites> with one <testsuite> per file, in the order given. */
export function toJUnitXml(results: readonly ScenarioFileResult[], options: JUnitOptions = {}): string {
  const hostname = options.hostname?.trim() || 'localhost'
  const suites = results.map((r, i) => suiteXml(r, i, hostname))
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites, '</testsuites>', ''].join('\n')
}
