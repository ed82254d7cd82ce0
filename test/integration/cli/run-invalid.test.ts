import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../support/use-temp-dir'
import { EXAMPLES, runCli } from './support'

// Every way a scenario file can be wrong ends in exit 2 and a message that names the JSON path.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>

function example(name: string): Doc {
  return JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as Doc
}

describe('hookloop run with an invalid scenario file', () => {
  const temp = useTempDir('hookloop-run-invalid-', 'all')

  function write(name: string, content: string | Doc): string {
    const file = join(temp.dir, name)
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
    return file
  }

  async function expectInvalid(file: string, ...lines: (string | RegExp)[]): Promise<string> {
    const result = await runCli(['run', file])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`hookloop: ${file} is not a valid scenario:`)
    for (const line of lines) {
      if (typeof line === 'string') expect(result.stderr).toContain(`  ${line}`)
      else expect(result.stderr).toMatch(line)
    }
    return result.stderr
  }

  it('refuses text that is not JSON, with line and column', async () => {
    await expectInvalid(write('not-json.json', '{\n  "version": 1,\n  "name": "x",\n}\n'), /\(root\): not valid JSON: .*\(line 4, column 1\)/)
    await expectInvalid(write('truncated.json', '{"version": 1, "name": '), /\(root\): not valid JSON/)
  })

  it('names a wrong type at its path', async () => {
    const doc = example('provider-a-fail-first-3.json')
    doc.events[0].at_ms = 'soon'
    doc.expect.deliveries[0].attempts = '4'
    await expectInvalid(write('wrong-type.json', doc), 'events[0].at_ms: expected number, got string "soon"', 'expect.deliveries[0].attempts: expected number, got string "4"')
  })

  it('names an unknown fault, step and policy with what is accepted', async () => {
    const doc = example('duplicate-bad-signature.json')
    doc.events[2].faults[0].type = 'dupe'
    doc.endpoints[0].rules = [{ steps: [{ type: 'explode' }] }]
    doc.subscriptions[0].policy = 'pandoktor'
    await expectInvalid(
      write('unknown-kinds.json', doc),
      /events\[2\]\.faults\[0\]\.type: unknown fault "dupe" \(expected one of duplicate, wrong-secret, .*drop/,
      /endpoints\[0\]\.rules\[0\]\.steps\[0\]\.type: unknown step "explode" \(expected one of delay, reply, /,
      /subscriptions\[0\]\.policy: unknown policy "pandoktor" \(expected one of pandoktorek, csku, /,
    )
  })

  it('names a missing required field', async () => {
    const doc = example('provider-b-csku.json')
    delete doc.events[0].type
    delete doc.version
    await expectInvalid(write('missing.json', doc), 'events[0].type: required field missing (expected string)', 'version: required field missing (expected 1)')
  })

  it('refuses a final step that is not last', async () => {
    const doc = example('provider-a-always-503.json')
    doc.endpoints[0].rules[0].steps = [{ type: 'reply', status: 503 }, { type: 'delay', ms: 100 }]
    await expectInvalid(write('final-step.json', doc), 'endpoints[0].rules[0].steps[0].type: "reply" is a final step and must be the last one (found at position 1 of 2)')
  })

  it('refuses duplicate ids', async () => {
    const doc = example('duplicate-bad-signature.json')
    doc.events[1].id = 'twice'
    doc.subscriptions.push({ ...doc.subscriptions[0] })
    await expectInvalid(
      write('duplicate-ids.json', doc),
      'events[1].id: duplicate event id "twice" (already used at index 0)',
      'subscriptions[1].id: duplicate subscription id "svix-like" (already used at index 0)',
    )
  })

  it('refuses an expectation that names an unknown event', async () => {
    const doc = example('provider-a-fail-first-3.json')
    doc.expect.deliveries[0].event = 'bookin'
    await expectInvalid(write('unknown-event.json', doc), 'expect.deliveries[0].event: unknown event "bookin" (events: booking)')
  })

  it('refuses an unknown field, so a typo cannot pass silently', async () => {
    const doc = example('provider-a-fail-first-3.json')
    doc.expect.deliveries[0].attemps = 4
    await expectInvalid(write('typo.json', doc), 'expect.deliveries[0].attemps: unknown field "attemps" (did you mean "attempts"?)')
  })

  it('refuses a file it cannot read, and a folder without scenarios', async () => {
    const missing = join(temp.dir, 'nope.json')
    const result = await runCli(['run', missing])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`hookloop: cannot read the scenario ${missing}: no such file\n`)
    const folder = join(temp.dir, 'a-folder')
    mkdirSync(folder)
    const dir = await runCli(['run', folder])
    expect(dir.code).toBe(2)
    expect(dir.stderr).toBe(`hookloop: run: no *.json scenario files in ${folder}\n`)
  })

  it('exits 2 with one line on bad usage', async () => {
    const none = await runCli(['run'])
    expect(none.code).toBe(2)
    expect(none.stderr).toBe('hookloop: run: which scenario file or folder? (hookloop run FILE|DIR [--report OUT.json] [--junit OUT.xml])\n')
    const flag = await runCli(['run', 'x.json', '--frobnicate'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/^hookloop: run: Unknown option '--frobnicate'/)
  })

  it('--schema prints the JSON Schema of scenario files', async () => {
    const result = await runCli(['run', '--schema'])
    expect(result.code).toBe(0)
    const schema = JSON.parse(result.stdout) as { title: string; properties: Record<string, unknown> }
    expect(schema.title).toBe('Hookloop scenario')
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['$schema', 'version', 'clock', 'endpoints', 'subscriptions', 'events', 'actions', 'expect']))
  })
})
