import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../support/use-temp-dir'
import { junitSchemaErrors } from '../../support/junit-xsd'
import { EXAMPLES, runCli } from './support'

// `hookloop run DIR --junit OUT.xml`, the way CI calls it: every scenario in the folder, sorted,
// a summary each and a total; exit 2 when a file is invalid, 1 when an expectation fails.

describe('hookloop run on a folder of scenarios', () => {
  const temp = useTempDir('hookloop-run-folder-', 'all')

  function folder(name: string, files: Record<string, string | 'copy-pass' | 'copy-fail'>): string {
    const dir = join(temp.dir, name)
    mkdirSync(dir)
    for (const [file, content] of Object.entries(files)) {
      if (content === 'copy-pass') copyFileSync(join(EXAMPLES, 'provider-a-fail-first-3.json'), join(dir, file))
      else if (content === 'copy-fail') {
        const doc = JSON.parse(readFileSync(join(EXAMPLES, 'provider-b-csku.json'), 'utf8')) as { name: string; expect: { deliveries: { status?: string }[] } }
        doc.name = 'provider B, wrong on purpose'
        doc.expect.deliveries[0]!.status = 'failed'
        writeFileSync(join(dir, file), JSON.stringify(doc))
      } else writeFileSync(join(dir, file), content)
    }
    return dir
  }

  it('all pass: exit 0, one summary per file in name order, a total, and valid JUnit', async () => {
    const dir = folder('pass', { 'b.json': 'copy-pass', 'a.json': 'copy-pass', 'notes.txt': 'not a scenario' })
    const junit = join(temp.dir, 'out', 'pass.xml')
    const result = await runCli(['run', dir, '--junit', junit])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const a = result.stdout.indexOf(`(${join(dir, 'a.json')})`)
    const b = result.stdout.indexOf(`(${join(dir, 'b.json')})`)
    expect(a).toBeGreaterThan(-1)
    expect(b).toBeGreaterThan(a)
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('TOTAL: 2 scenarios: 2 passed, 0 failed, 0 invalid')
    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml.match(/<testsuite /g)).toHaveLength(2)
    expect(xml).not.toContain('<failure')
  })

  it('a failing expectation: exit 1, the failure in the JUnit XML with expected vs actual', async () => {
    const dir = folder('fail', { '1-pass.json': 'copy-pass', '2-fail.json': 'copy-fail' })
    const junit = join(temp.dir, 'fail.xml')
    const report = join(temp.dir, 'fail.json')
    const result = await runCli(['run', dir, '--junit', junit, '--report', report])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('FAIL: 1 of')
    expect(result.stdout).toContain('TOTAL: 2 scenarios: 1 passed, 1 failed, 0 invalid')
    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toMatch(/<testsuite name="provider B, wrong on purpose" [^>]* failures="1" errors="0"/)
    expect(xml).toMatch(/<failure type="expectation" message="[^"]+">expected: "failed"\nactual: {3}"succeeded"\nat: {7}expect\.deliveries\[0\]\.status<\/failure>/)
    const doc = JSON.parse(readFileSync(report, 'utf8')) as { ok: boolean; scenarios: { file: string; result: string }[] }
    expect(doc.ok).toBe(false)
    expect(doc.scenarios.map((s) => [s.file, s.result])).toEqual([
      [join(dir, '1-pass.json'), 'passed'],
      [join(dir, '2-fail.json'), 'failed'],
    ])
  })

  it('an invalid file: exit 2 naming the file and the JSON path; the other files still run', async () => {
    const dir = folder('invalid', { 'a.json': 'copy-pass', 'b.json': '{"version": 1, "name": "broken", "events": "soon"}', 'c.json': 'copy-fail' })
    const junit = join(temp.dir, 'invalid.xml')
    const result = await runCli(['run', dir, '--junit', junit, '--json'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`hookloop: ${join(dir, 'b.json')} is not a valid scenario:\n`)
    expect(result.stderr).toContain('\n  events: expected array, got string "soon"\n')
    const doc = JSON.parse(result.stdout) as { ok: boolean; scenarios: { result: string; problems?: string[] }[] }
    expect(doc.scenarios.map((s) => s.result)).toEqual(['passed', 'invalid', 'failed'])
    expect(doc.scenarios[1]!.problems!.some((p) => p.startsWith('events: '))).toBe(true)
    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toContain(`<error type="invalid-scenario" message="${join(dir, 'b.json')} is not a valid scenario">`)
    expect(xml).toMatch(/<error type="invalid-scenario" [^>]*>[^<]*events: expected array, got string "soon"/)
  })

  it('a single file writes JUnit too', async () => {
    const junit = join(temp.dir, 'single.xml')
    const result = await runCli(['run', join(EXAMPLES, 'provider-a-fail-first-3.json'), '--junit', junit])
    expect(result.code).toBe(0)
    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toMatch(/<testsuite name="[^"]+" package="hookloop.scenarios" id="0" timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d" hostname="[^"]+" tests="\d+" failures="0" errors="0"/)
  })
})
