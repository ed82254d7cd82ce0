import { describe, expect, it } from 'vitest'
import type { ScenarioReport } from '../../../shared/scenario'
import { escapeXmlAttribute, escapeXmlText, toJUnitXml, type ScenarioFileResult } from '../../../electron/engine/scenarios/junit'
import { junitSchemaErrors } from '../../support/junit-xsd'

// JUnit XML from reports: valid under Jenkins' and Ant's schemas whatever the strings hold.

const NASTY = 'a < b && c > "d" \'e\' \u0001\u0008 tab\there\nnext line 🚀 \uD800'

function report(overrides: Partial<ScenarioReport> = {}): ScenarioReport {
  return {
    ok: false,
    scenario: 'provider A <fails> & "retries"',
    file: 'scenarios/a.json',
    clock: { mode: 'virtual' },
    started_at: Date.UTC(2026, 0, 5, 9),
    clock_ms: 840_000,
    wall_ms: 123.456,
    incomplete: null,
    deliveries: [],
    endpoints: [],
    actions: [{ path: 'actions[0]', type: 'retry-now', at_ms: 5, ok: false, message: `nothing to retry: ${NASTY}` }],
    expectations: [
      { path: 'expect.deliveries[0].status', subject: { kind: 'delivery', event: 'e1', subscription: 'sub-a', copy: false, field: 'status' }, label: 'e1 → sub-a: status', ok: true, expected: 'succeeded', actual: 'succeeded', message: '' },
      { path: 'expect.deliveries[0].attempts', subject: { kind: 'delivery', event: 'e1', subscription: 'sub-a', copy: false, field: 'attempts' }, label: `e1 → sub-a: attempts ${NASTY}`, ok: false, expected: 4, actual: 3, message: `expected 4 attempts, got 3 ${NASTY}` },
    ],
    ...overrides,
  }
}

const START = Date.UTC(2026, 10, 29, 12, 0, 0, 789)

describe('toJUnitXml', () => {
  it('writes one suite per file and one case per expectation, with expected vs actual on a failure', async () => {
    const results: ScenarioFileResult[] = [
      { kind: 'ran', file: 'scenarios/a.json', startedAt: START, report: report() },
      { kind: 'ran', file: 'scenarios/b.json', startedAt: START, report: report({ ok: true, scenario: 'b', actions: [], expectations: [] }) },
      { kind: 'invalid', file: 'scenarios/c & d.json', startedAt: START, problems: ['events[0].at_ms: expected number, got string "soon"', NASTY] },
      { kind: 'error', file: 'scenarios/e.json', startedAt: START, message: `the scenario could not run: ${NASTY}`, wallMs: 12 },
      { kind: 'ran', file: 'scenarios/f.json', startedAt: START, report: report({ incomplete: 'wall limit reached', actions: [] }) },
    ]
    const xml = toJUnitXml(results, { hostname: 'ci-runner' })
    expect(await junitSchemaErrors(xml)).toEqual([])

    const suites = xml.match(/<testsuite /g) ?? []
    expect(suites).toHaveLength(5)
    expect(xml).toContain('<testsuite name="provider A &lt;fails&gt; &amp; &quot;retries&quot;" package="hookloop.scenarios" id="0" timestamp="2026-11-29T12:00:00" hostname="ci-runner" tests="3" failures="2" errors="0" skipped="0" time="0.123">')
    expect(xml).toContain('<failure type="expectation" message="expected 4 attempts, got 3 a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;  tab&#9;here&#10;next line 🚀 ">expected: 4\nactual:   3\nat:       expect.deliveries[0].attempts</failure>')
    expect(xml).toContain('<testcase name="e1 → sub-a: status [expect.deliveries[0].status]" classname="provider A &lt;fails&gt; &amp; &quot;retries&quot;" time="0.000"/>')
    expect(xml).toContain('<testsuite name="scenarios/c &amp; d.json" package="hookloop.scenarios" id="2"')
    expect(xml).toContain('<error type="invalid-scenario" message="scenarios/c &amp; d.json is not a valid scenario">events[0].at_ms: expected number, got string "soon"\n')
    expect(xml).toContain('<error type="run-error"')
    expect(xml).toContain('<testcase name="the run settles" classname="provider A &lt;fails&gt; &amp; &quot;retries&quot;" time="0.000">')
    // The readable summary rides along for CI systems that show a suite's output.
    expect(xml).toContain('<system-out>Scenario: provider A &lt;fails&gt; &amp; "retries" (scenarios/a.json)')
  })

  it('is still valid with no files at all', async () => {
    const xml = toJUnitXml([])
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n</testsuites>\n')
    expect(await junitSchemaErrors(xml)).toEqual([])
  })

  it('the schemas do reject a malformed report (the validation is not vacuous)', async () => {
    const xml = toJUnitXml([{ kind: 'ran', file: 'a.json', startedAt: START, report: report() }])
    const noTests = xml.replace(/ tests="\d+"/, '')
    const errors = await junitSchemaErrors(noTests)
    expect(errors.some((e) => e.startsWith('jenkins-junit-10.xsd:') && e.includes("'tests'"))).toBe(true)
    expect(errors.some((e) => e.startsWith('ant-junit-windyroad.xsd:'))).toBe(true)
  })
})

describe('XML escaping', () => {
  it('escapes markup and drops characters XML 1.0 cannot hold', () => {
    expect(escapeXmlText('<a & b>\u0000\u001F ok\n')).toBe('&lt;a &amp; b&gt; ok\n')
    expect(escapeXmlAttribute('"x"\n\'y\'\r\t')).toBe('&quot;x&quot;&#10;&apos;y&apos;&#13;&#9;')
    // A paired surrogate (emoji) stays, lone halves go.
    expect(escapeXmlText('🚀\uD800x\uDC00')).toBe('🚀x')
  })
})
