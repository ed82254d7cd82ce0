// One bad row never stops the engine: a data folder with an endpoint, a rule and a subscription that
// no longer parse starts under `hookloop serve` (the rest answers and the bad rows are named, not a
// schema dump); `hookloop doctor` lists each row by table, id, field and what was expected, and
// `--repair` resets or removes them, saying what it did. Real processes from the build, a real file.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI_PATH, outputOf, runCli } from '../../support/run-cli'
import { fillFolderWithBadRows } from '../../support/bad-rows'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

async function badFolder() {
  const temp = makeTempDir('hookloop-doctor-')
  cleanups.push(temp.cleanup)
  return { dir: temp.dir, ...(await fillFolderWithBadRows(temp.dir)) }
}

describe('a data folder with rows that do not parse', () => {
  it('`hookloop serve` starts, names each row it set aside, and the rest answers', async () => {
    const { dir, badSubscriptionId } = await badFolder()
    const child = spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    const ended = outputOf(child)
    const lines: string[] = []
    const receiver = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line)
        const url = /^Webhook receiver: (http:\/\/[^/\s]+)/.exec(line)?.[1]
        if (url) done(url)
      })
      child.once('exit', () => fail(new Error(`serve exited: ${lines.join('\n')}`)))
    })
    // The good endpoint answers by its rule (fail-first was damaged: set aside, so no rule: 200);
    // the damaged endpoint is set aside, so nothing answers at its path.
    expect((await fetch(`${receiver}/h/shop`, { method: 'POST', body: '{}' })).status).toBe(200)
    expect((await fetch(`${receiver}/h/broken`, { method: 'POST', body: '{}' })).status).toBe(404)
    child.kill('SIGTERM')
    const { code, stderr } = await ended
    expect(code).toBe(0)
    expect(stderr).toContain(`subscriptions row ${badSubscriptionId} ("invoices"): policy_json is not a retry policy`)
    expect(stderr).toContain('max_attempts: Invalid input: expected number, received string')
    expect(stderr).toContain('endpoints row')
    expect(stderr).toContain('rules row')
    expect(stderr).toContain('settings row retention ("retention"): value_json is not retention limits')
    expect(stderr).not.toContain('"code": "invalid_type"')
  })

  it('`hookloop listen` starts on the rest and names the rows it set aside on stderr', async () => {
    const { dir, badEndpointId, badRuleId } = await badFolder()
    const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    const ended = outputOf(child)
    const receiver = await new Promise<string>((done, fail) => {
      let out = ''
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const url = /Hookloop receiver on (http:\/\/[^\s]+)/.exec(out)?.[1]
        if (url && out.includes('Press Ctrl-C')) done(url)
      })
      child.once('exit', () => fail(new Error(`listen exited: ${out}`)))
    })
    expect((await fetch(`${receiver}/h/shop`, { method: 'POST', body: '{}' })).status).toBe(200)
    child.kill('SIGINT')
    const { code, stdout, stderr } = await ended
    expect(code).toBe(0)
    expect(stdout).not.toContain('/h/broken')
    expect(stderr).toContain(`endpoints row ${badEndpointId} ("broken"): config_json is not an endpoint's settings`)
    expect(stderr).toContain(`rules row ${badRuleId} ("/h/shop"): definition_json is not a rule`)
    expect(stderr).toContain('settings row retention ("retention"): value_json is not retention limits')
    expect(stdout).toContain('Retention: 30 days, at most 1024 MB')
  })

  it('`hookloop doctor` lists them (text and --json); --repair resets or removes each and says what it did', async () => {
    const { dir, badEndpointId, badRuleId, badSubscriptionId } = await badFolder()
    const listed = await runCli(['doctor', '--data', dir])
    expect(listed.code).toBe(1)
    expect(listed.stdout).toContain('4 rows are set aside')
    expect(listed.stdout).toContain(`endpoints row ${badEndpointId} ("broken"): config_json is not an endpoint's settings`)
    expect(listed.stdout).toContain(`rules row ${badRuleId} ("/h/shop"): definition_json is not a rule`)
    expect(listed.stdout).toContain(`subscriptions row ${badSubscriptionId} ("invoices"): policy_json is not a retry policy`)

    const json = await runCli(['doctor', '--data', dir, '--json'])
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as { badRows: { table: string; id: string; field: string; expected: string }[] }
    expect(report.badRows.map((b) => [b.table, b.id, b.field])).toEqual([
      ['endpoints', badEndpointId, 'config_json'],
      ['rules', badRuleId, 'definition_json'],
      ['subscriptions', badSubscriptionId, 'policy_json'],
      ['settings', 'retention', 'value_json'],
    ])

    const repaired = await runCli(['doctor', '--data', dir, '--repair'])
    expect(repaired.code).toBe(0)
    expect(repaired.stdout).toContain(`repaired endpoints row ${badEndpointId} ("broken"): reset config_json to {}`)
    expect(repaired.stdout).toContain(`repaired rules row ${badRuleId} ("/h/shop"): removed the rule`)
    expect(repaired.stdout).toContain(`repaired subscriptions row ${badSubscriptionId} ("invoices"): reset policy_json to the standard-webhooks retry policy preset`)
    expect(repaired.stdout).toContain('repaired settings row retention ("retention"): removed it: the default retention applies (30 days, 1024 MB')

    const after = await runCli(['doctor', '--data', dir, '--json'])
    expect(after.code).toBe(0)
    expect((JSON.parse(after.stdout) as { badRows: unknown[] }).badRows).toEqual([])
  })
})
