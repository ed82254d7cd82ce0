// `hookloop sign` and `hookloop verify` spawned as real processes: output, exit codes, piping.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../support/temp-dir'
import { runCli } from '../../support/run-cli'

const WHSEC = 'whsec_' + Buffer.from('cli test key of thirty-two bytes').toString('base64')
const NOW = 1_700_000_000
let dir: string
let cleanup: () => void
let bodyFile: string

beforeAll(() => {
  ;({ dir, cleanup } = makeTempDir('hookloop-cli-'))
  bodyFile = join(dir, 'body.json')
  // Written with a space and a trailing newline: the CLI must sign these exact bytes.
  writeFileSync(bodyFile, '{"id": "evt_1", "type": "order.paid"}\n')
})
afterAll(() => cleanup())

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

describe('hookloop sign', () => {
  it('prints only a JSON object of lower-case headers, exit 0', async () => {
    const run = await runCli(['sign', '--scheme', 'standard-webhooks', '--secret', WHSEC, '--body-file', bodyFile, '--id', 'msg_cli', '--timestamp', String(NOW)])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const headers = JSON.parse(run.stdout) as Record<string, string>
    expect(headers).toMatchObject({ 'webhook-id': 'msg_cli', 'webhook-timestamp': String(NOW) })
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
  })

  it('fills in a fresh id and the current time', async () => {
    const run = await runCli(['sign', '--scheme', 'svix', '--secret', WHSEC, '--body-file', bodyFile])
    const headers = JSON.parse(run.stdout) as Record<string, string>
    expect(headers['svix-id']).toMatch(/^msg_[0-9A-Za-z]{27}$/)
    expect(Number(headers['svix-timestamp'])).toBeGreaterThan(NOW)
    const github = JSON.parse((await runCli(['sign', '--scheme', 'github', '--secret', 's', '--body-file', bodyFile])).stdout) as Record<string, string>
    expect(github['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses a bad secret, a URL-signed scheme without --url and stray custom flags with exit 2', async () => {
    for (const args of [
      ['--scheme', 'standard-webhooks', '--secret', 'not-whsec'],
      ['--scheme', 'twilio', '--secret', 'token'],
      ['--scheme', 'github', '--secret', 's', '--header', 'X-Sig'],
      ['--scheme', 'github', '--secret', 's', '--timestamp', 'yesterday'],
    ]) {
      const run = await runCli(['sign', ...args, '--body-file', bodyFile])
      expect(run.code).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
    }
  })
})

describe('hookloop verify', () => {
  it('accepts sign output piped in as the headers (exit 0) and prints the result as JSON', async () => {
    const signed = await runCli(['sign', '--scheme', 'stripe', '--secret', 'whsec_cli', '--body-file', bodyFile, '--timestamp', String(NOW)])
    const run = await runCli(['verify', '--scheme', 'stripe', '--secret', 'whsec_cli', '--body-file', bodyFile, '--headers-file', '-', '--now', String(NOW + 10)], { stdin: signed.stdout })
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, scheme: 'stripe', reason: 'ok', secretIndex: 0, skewSeconds: 10 })
  })

  it('accepts the second of two --secret (rotation)', async () => {
    const signed = await runCli(['sign', '--scheme', 'standard-webhooks', '--secret', WHSEC, '--body-file', bodyFile, '--timestamp', String(NOW)])
    const headers = file('rotation.json', signed.stdout)
    const other = 'whsec_' + Buffer.from('the previous key').toString('base64')
    const run = await runCli(['verify', '--scheme', 'standard-webhooks', '--secret', other, '--secret', WHSEC, '--body-file', bodyFile, '--headers-file', headers, '--now', String(NOW)])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, secretIndex: 1 })
  })

  it('exits 1 with the reason and the hint when the body was re-serialised', async () => {
    const signed = await runCli(['sign', '--scheme', 'github', '--secret', 'gh', '--body-file', file('compact.json', '{"a":1,"b":[1,2]}')])
    const run = await runCli(['verify', '--scheme', 'github', '--secret', 'gh', '--body-file', file('pretty.json', '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}'), '--headers-file', file('gh.json', signed.stdout)])
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout) as { valid: boolean; reason: string; detail: string; expected: string; received: string }
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(result.detail).toContain('re-serialised')
    expect(result.received).toMatch(/^sha256=/)
  })

  it('exits 1 for a stale timestamp and for a missing header', async () => {
    const signed = await runCli(['sign', '--scheme', 'slack', '--secret', 'sl', '--body-file', bodyFile, '--timestamp', String(NOW)])
    const headers = file('slack.json', signed.stdout)
    const stale = await runCli(['verify', '--scheme', 'slack', '--secret', 'sl', '--body-file', bodyFile, '--headers-file', headers, '--now', String(NOW + 900)])
    expect(stale.code).toBe(1)
    expect(JSON.parse(stale.stdout)).toMatchObject({ reason: 'timestamp_too_old', skewSeconds: 900 })
    const none = await runCli(['verify', '--scheme', 'slack', '--secret', 'sl', '--body-file', bodyFile, '--headers-file', file('empty.json', '{}')])
    expect(JSON.parse(none.stdout)).toMatchObject({ reason: 'missing_header' })
  })

  it('signs and verifies the custom scheme from flags', async () => {
    const flags = ['--scheme', 'custom', '--header', 'X-Acme-Sig', '--prefix', 'sha512=', '--algorithm', 'sha512', '--encoding', 'base64', '--template', '{timestamp}.{body}', '--timestamp-header', 'X-Acme-Ts']
    const signed = await runCli(['sign', ...flags, '--secret', 'acme', '--body-file', bodyFile, '--timestamp', String(NOW)])
    expect(Object.keys(JSON.parse(signed.stdout) as object).sort()).toEqual(['x-acme-sig', 'x-acme-ts'])
    const run = await runCli(['verify', ...flags, '--secret', 'acme', '--body-file', bodyFile, '--headers-file', file('custom.json', signed.stdout), '--now', String(NOW), '--tolerance', '60'])
    expect(run.code).toBe(0)
    const late = await runCli(['verify', ...flags, '--secret', 'acme', '--body-file', bodyFile, '--headers-file', file('custom.json', signed.stdout), '--now', String(NOW + 61), '--tolerance', '60'])
    expect(JSON.parse(late.stdout)).toMatchObject({ reason: 'timestamp_too_old' })
  })

  it('exits 2 with one line on stderr for bad usage', async () => {
    const headers = file('ok.json', '{"x-hub-signature-256":"sha256=00"}')
    const cases: Array<[string[], RegExp]> = [
      [['--scheme', 'paypal', '--secret', 's', '--body-file', bodyFile, '--headers-file', headers], /unknown scheme "paypal"/],
      [['--scheme', 'github', '--secret', 's', '--body-file', join(dir, 'nope.json'), '--headers-file', headers], /cannot read --body-file .*nope\.json/],
      [['--scheme', 'github', '--secret', 's', '--body-file', bodyFile, '--headers-file', file('bad.json', '{not json')], /not valid JSON/],
      [['--scheme', 'github', '--secret', 's', '--body-file', bodyFile, '--headers-file', file('list.json', '["a"]')], /JSON object/],
      [['--scheme', 'github', '--body-file', bodyFile, '--headers-file', headers], /missing --secret/],
      [['--scheme', 'github', '--secret', 's', '--headers-file', headers], /missing --body-file/],
      [['--scheme', 'github', '--secret', 's', '--body-file', bodyFile, '--headers-file', headers, '--now', 'noon'], /--now/],
      [['--scheme', 'custom', '--secret', 's', '--body-file', bodyFile, '--headers-file', headers], /missing --header/],
      [['--scheme', 'custom', '--header', 'X', '--template', '{id}{body}', '--secret', 's', '--body-file', bodyFile, '--headers-file', headers], /no id header/],
      [['--scheme', 'github', '--bogus'], /bogus/],
    ]
    for (const [args, message] of cases) {
      const run = await runCli(['verify', ...args])
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(message)
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  it('prints usage for --help with exit 0', async () => {
    for (const command of ['sign', 'verify']) {
      const run = await runCli([command, '--help'])
      expect(run.code).toBe(0)
      expect(run.stdout).toContain(`Usage: hookloop ${command}`)
      expect(run.stdout).toContain('--template')
    }
  })
})
