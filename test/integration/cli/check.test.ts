import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConsumerCheckResult } from '../../../shared/conformance'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { startCarefulConsumer } from '../../support/consumers/careful'
import { startSloppyConsumer } from '../../support/consumers/sloppy'
import type { RunningConsumer } from '../../support/consumers/server'
import { SLOPPY_VERDICTS } from '../../support/consumers/verdicts'

// `hookloop check` as a real process against real consumers: exit 0 / 1 / 2, the report card,
// --json and --report.

const SECRET = `whsec_${Buffer.from('hookloop consumer check secret!!').toString('base64')}`

describe('hookloop check', () => {
  const temp = useTempDir('hookloop-check-', 'all')
  const running: RunningConsumer[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.close()))
  })

  it('exit 0 for a careful consumer, a ✓ line per check, and the JSON report', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'standard-webhooks', secret: SECRET })
    running.push(consumer)
    const report = join(temp.dir, 'reports', 'careful.json')
    const result = await runCli(['check', consumer.url, '--scheme', 'standard-webhooks', '--secret', SECRET, '--samples', '4', '--report', report])
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`Consumer check: ${consumer.url} (standard-webhooks, timeout 10000 ms)`)
    const marks = lines.filter((l) => /^[✓!✗–] /.test(l))
    expect(marks).toHaveLength(8)
    expect(marks.every((l) => l.startsWith('✓ '))).toBe(true)
    expect(result.stdout).toContain('✓ Rejects a wrong signature: an event signed with a wrong secret: answered 401')
    expect(result.stdout).not.toContain('why:')
    expect(lines.at(-1)).toBe('PASS: 8 of 8 checks pass')
    // Progress on stderr, one line per request.
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(6 + 4)
    const doc = JSON.parse(readFileSync(report, 'utf8')) as ConsumerCheckResult
    expect(doc.ok).toBe(true)
    expect(doc.checks.map((c) => [c.id, c.passed])).toEqual([
      ['valid_delivery', true],
      ['duplicate_tolerated', true],
      ['wrong_signature_rejected', true],
      ['missing_signature_rejected', true],
      ['stale_timestamp_rejected', true],
      ['malformed_body_rejected', true],
      ['no_redirect', true],
      ['latency', true],
    ])
    expect(doc.checks.every((c) => typeof c.detail === 'string' && c.detail.length > 0)).toBe(true)
    expect(doc.latency?.samples).toBe(4)
  })

  it('exit 1 for a sloppy consumer: ✗ with why and fix, ! for slow answers', async () => {
    const consumer = await startSloppyConsumer({ delayMs: 150 })
    running.push(consumer)
    const result = await runCli(['check', consumer.url, '--scheme', 'standard-webhooks', '--secret', SECRET, '--samples', '2', '--warn-ms', '100', '--json'])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toBe('')
    const doc = JSON.parse(result.stdout) as ConsumerCheckResult
    expect(doc.ok).toBe(false)
    expect(Object.fromEntries(doc.checks.map((c) => [c.id, c.severity]))).toEqual(SLOPPY_VERDICTS)

    const card = await runCli(['check', consumer.url, '--scheme', 'standard-webhooks', '--secret', SECRET, '--samples', '2', '--warn-ms', '100'])
    expect(card.code).toBe(1)
    expect(card.stdout).toMatch(/^✗ Rejects a wrong signature: an event signed with a wrong secret was accepted: answered 200 in \d+ ms: ok\n {4}why: Your URL is public: .*\n {4}fix: Verify the signature header against the raw body/m)
    expect(card.stdout).toMatch(/^! Accepts a valid event in time: .*slower than 100 ms/m)
    expect(card.stdout).toMatch(/^✓ Does not redirect: none of 8 requests was redirected$/m)
    expect(card.stdout.trimEnd().split('\n').at(-1)).toBe('FAIL: 5 of 8 checks failed (2 warnings)')
  })

  it('sends the --payload-file JSON with its id replaced per request', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'github', secret: 'gh-secret' })
    running.push(consumer)
    const payload = join(temp.dir, 'payload.json')
    writeFileSync(payload, JSON.stringify({ id: 'order-1', type: 'order.paid', amount: 1200 }))
    const result = await runCli(['check', consumer.url, '--scheme', 'github', '--secret', 'gh-secret', '--samples', '1', '--payload-file', payload])
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain('– Rejects a stale timestamp: skipped: this scheme signs no timestamp')
    const first = JSON.parse(consumer.requests[0]!.body.toString('utf8')) as { id: string; type: string; amount: number }
    expect(first.type).toBe('order.paid')
    expect(first.amount).toBe(1200)
    expect(first.id).not.toBe('order-1')
    expect(first.id).toBe(consumer.requests[0]!.headers['x-github-delivery'])
  })

  it('exit 2 with one line on stderr for an unreachable URL and for bad usage', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'github', secret: 'k' })
    const url = consumer.url
    await consumer.close()
    const refused = await runCli(['check', url, '--scheme', 'github', '--secret', 'k'])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^hookloop: cannot reach http:\/\/127\.0\.0\.1:\d+\/webhooks: connection refused[^\n]*\n$/)

    const cases: [string[], RegExp][] = [
      [['check'], /^hookloop: check: which endpoint\?/],
      [['check', url, '--scheme', 'github'], /^hookloop: missing --secret\n$/],
      [['check', url, '--scheme', 'nope', '--secret', 'k'], /^hookloop: unknown scheme "nope"/],
      [['check', 'not a url', '--scheme', 'github', '--secret', 'k'], /^hookloop: check: not a URL: "not a url"\n$/],
      [['check', url, '--scheme', 'github', '--secret', 'k', '--timeout-ms', 'soon'], /^hookloop: check: --timeout-ms must be a positive whole number, got "soon"\n$/],
      [['check', url, '--scheme', 'github', '--secret', 'k', '--payload-file', join(temp.dir, 'missing.json')], /^hookloop: cannot read --payload-file .*ENOENT/],
      [['check', url, '--scheme', 'standard-webhooks', '--secret', 'whsec_***'], /^hookloop: check: .*secret/i],
      [['check', url, '--scheme', 'github', '--secret', 'k', '--header', 'x-sig'], /^hookloop: --header only applies to --scheme custom\n$/],
    ]
    for (const [args, stderr] of cases) {
      const result = await runCli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(stderr)
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })
})
