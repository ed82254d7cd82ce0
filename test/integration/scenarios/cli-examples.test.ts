import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScenarioReport } from '../../../shared/scenario'
import { useTempDir } from '../../support/use-temp-dir'
import { CLI_PATH } from '../../support/run-cli'
import { EXAMPLES, runCli } from './cli'

const MIN = 60_000

describe('hookloop run on the example scenarios', () => {
  const temp = useTempDir('hookloop-run-examples-', 'all')

  async function runExample(name: string, extra: string[] = []): Promise<{ report: ScenarioReport; stdout: string; code: number | null }> {
    // The report's folder is made when missing (CI writes to artifacts/ …).
    const out = join(temp.dir, 'reports', name.replace('.json', '.report.json'))
    const result = await runCli(['run', join(EXAMPLES, name), '--report', out, ...extra])
    expect(result.stderr).toBe('')
    return { report: JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport, stdout: result.stdout, code: result.code }
  }

  it('seed provider A, fail the first 3: four attempts at exactly 0, 2, 6 and 14 min', async () => {
    const { report, stdout, code } = await runExample('provider-a-fail-first-3.json')
    expect(code).toBe(0)
    expect(report.ok).toBe(true)
    expect(report.deliveries).toHaveLength(1)
    const d = report.deliveries[0]!
    expect(d.event_id).toBe('550e8400-e29b-41d4-a716-446655440000')
    expect(d.status).toBe('succeeded')
    expect(d.loop).toBe(true)
    expect(d.attempts.map((a) => a.n)).toEqual([1, 2, 3, 4])
    expect(d.attempts.map((a) => a.at_ms)).toEqual([0, 2 * MIN, 6 * MIN, 14 * MIN])
    expect(d.attempts.map((a) => a.outcome)).toEqual(['http_503', 'http_503', 'http_503', 'http_200'])
    expect(d.attempts.map((a) => a.status_code)).toEqual([503, 503, 503, 200])
    expect(d.attempts.map((a) => a.signature)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(d.attempts.map((a) => a.duplicate)).toEqual([1, 2, 3, 4])
    // Every attempt is linked to the request the receiver captured for it.
    expect(d.attempts.every((a) => typeof a.request_id === 'number')).toBe(true)
    expect(new Set(d.attempts.map((a) => a.request_id)).size).toBe(4)
    expect(report.expectations.every((e) => e.ok)).toBe(true)
    expect(stdout).toMatch(/#4 +\+840000 ms +\(14 min\) +http_200 +succeeded sig ok dup #4/)
    expect(stdout.trim().split('\n').at(-1)).toBe('PASS: 9 of 9 expectations hold')
  })

  it('seed provider A, always 503: ten attempts over 14.5 h, then failed — in seconds', async () => {
    const { report, code } = await runExample('provider-a-always-503.json')
    expect(code).toBe(0)
    const d = report.deliveries[0]!
    expect(d.status).toBe('failed')
    expect(d.attempts.map((a) => a.at_ms / MIN)).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 870])
    expect(d.attempts.map((a) => a.decision)).toEqual([...Array(9).fill('retry'), 'failed'])
    expect(d.attempts.at(-1)!.next_at_ms).toBeNull()
    expect(report.clock_ms).toBe(870 * MIN)
    expect(report.clock).toEqual({ mode: 'virtual', start: '2026-01-05T09:00:00Z' })
  })

  it('seed provider A, slow 11 s: the first attempt is a timeout at exactly 10 000 ms, the retry 2 min after it', async () => {
    const { report, code } = await runExample('provider-a-slow-timeout.json')
    expect(code).toBe(0)
    const d = report.deliveries[0]!
    expect(d.attempts.map((a) => [a.at_ms, a.duration_ms, a.outcome, a.next_at_ms])).toEqual([
      [0, 10_000, 'timeout', 130_000],
      [130_000, 0, 'http_200', null],
    ])
  })

  it('seed provider B: 30 s apart, a 201 is retried, the composite key numbers duplicates', async () => {
    const { report, code } = await runExample('provider-b-csku.json')
    expect(code).toBe(0)
    const d = report.deliveries[0]!
    expect(d.attempts.map((a) => [a.at_ms, a.outcome, a.decision, a.duplicate])).toEqual([
      [0, 'http_503', 'retry', 1],
      [30_000, 'http_201', 'retry', 2],
      [60_000, 'http_200', 'succeeded', 3],
    ])
  })

  it('sending-side faults: the copy is dup #2, the receiver explains each bad signature', async () => {
    const { report, code } = await runExample('duplicate-bad-signature.json')
    expect(code).toBe(0)
    expect(report.deliveries.map((d) => [d.event, d.duplicate_of === null ? 'original' : 'copy', d.attempts[0]?.signature, d.attempts[0]?.duplicate])).toEqual([
      ['twice', 'original', 'ok', 1],
      ['twice', 'copy', 'ok', 2],
      ['tampered', 'original', 'signature_mismatch', 1],
      ['stale', 'original', 'timestamp_too_old', 1],
    ])
    // The delayed copy goes 5 s after the original, on the scenario clock.
    const [original, copy] = report.deliveries
    expect(copy!.attempts[0]!.run_ms - original!.attempts[0]!.run_ms).toBe(5000)
    expect(report.endpoints).toEqual([{ slug: 'consumer', requests: 4, duplicates_flagged: 1, signatures: { ok: 2, signature_mismatch: 1, timestamp_too_old: 1 } }])
  })

  it('seed provider A panel: Retry now an hour after a final 410, then a rotated secret fails verification', async () => {
    const { report, code } = await runExample('provider-a-panel-actions.json')
    expect(code).toBe(0)
    const [booking, afterRotation] = report.deliveries
    expect(booking!.attempts.map((a) => [a.at_ms, a.outcome, a.decision])).toEqual([
      [0, 'http_410', 'failed'],
      [60 * MIN, 'http_200', 'succeeded'],
    ])
    expect(afterRotation!.attempts.map((a) => [a.run_ms, a.signature])).toEqual([[120 * MIN, 'signature_mismatch']])
    expect(report.actions.map((a) => [a.type, a.at_ms, a.ok])).toEqual([
      ['retry-now', 60 * MIN, true],
      ['rotate-secret', 90 * MIN, true],
    ])
  })

  it('a deliberately wrong expectation exits 1 with the ✗ line and its path', async () => {
    const doc = JSON.parse(readFileSync(join(EXAMPLES, 'provider-a-fail-first-3.json'), 'utf8')) as { expect: { deliveries: { at_ms: number[] }[] } }
    doc.expect.deliveries[0]!.at_ms = [0, 2 * MIN, 4 * MIN, 14 * MIN]
    const file = join(temp.dir, 'wrong-times.json')
    writeFileSync(file, JSON.stringify(doc))
    const out = join(temp.dir, 'wrong-times.report.json')
    const result = await runCli(['run', file, '--report', out])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('  ✗ booking → pandoktorek: at_ms: attempt 3 at 360000 ms, expected 240000 ms  [expect.deliveries[0].at_ms]')
    expect(result.stdout.trim().split('\n').at(-1)).toBe('FAIL: 1 of 9 expectations failed')
    const report = JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport
    expect(report.ok).toBe(false)
    expect(report.expectations.filter((e) => !e.ok).map((e) => e.path)).toEqual(['expect.deliveries[0].at_ms'])
  })

  it('--data keeps the run\'s SQLite file; --json prints the report', async () => {
    const dataDir = join(temp.dir, 'kept')
    const result = await runCli(['run', join(EXAMPLES, 'provider-b-csku.json'), '--data', dataDir, '--json'])
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as ScenarioReport
    expect(report.ok).toBe(true)
    expect(existsSync(join(dataDir, 'hookloop.db'))).toBe(true)
    // A second run into the same folder would judge two runs at once: refused, nothing touched.
    const again = await runCli(['run', join(EXAMPLES, 'provider-b-csku.json'), '--data', dataDir])
    expect(again.code).toBe(2)
    expect(again.stderr).toBe(`hookloop: run: ${join(dataDir, 'hookloop.db')} already exists; a scenario run starts from an empty store (give --data a new folder)\n`)
  })

  it('Ctrl-C stops a long real-clock run, still prints and writes the report, exit 1', async () => {
    const doc = JSON.parse(readFileSync(join(EXAMPLES, 'provider-a-always-503.json'), 'utf8')) as { clock: unknown; events: unknown[] }
    doc.clock = { mode: 'real' } // 14.5 hours of real time: only the interrupt ends it
    // An event still to come must not keep the process alive after the interrupt.
    doc.events.push({ id: 'later', type: 'booking.created', payload: {}, at_ms: 600_000 })
    const file = join(temp.dir, 'long.json')
    writeFileSync(file, JSON.stringify(doc))
    const dataDir = join(temp.dir, 'long-data')
    const out = join(temp.dir, 'long.report.json')
    const child = spawn(process.execPath, [CLI_PATH, 'run', file, '--data', dataDir, '--report', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // The store file appears once the engine is being built, after the signal handlers are set.
    for (let i = 0; i < 3000 && !existsSync(join(dataDir, 'hookloop.db')); i++) await new Promise((r) => setTimeout(r, 10))
    child.kill('SIGINT')
    expect(await exited).toBe(1)
    expect(stdout).toContain('! interrupted before every delivery was final')
    const report = JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport
    expect(report.ok).toBe(false)
    expect(report.incomplete).toBe('interrupted before every delivery was final')
  })

  it('providers: GitHub and Stripe subscriptions that name only their provider, catalog events, each delivery named by the id its consumer sees', async () => {
    const { report, stdout, code } = await runExample('providers-github-stripe.json')
    expect(code).toBe(0)
    expect(report.ok).toBe(true)
    const paid = report.deliveries.find((d) => d.event === 'paid')!
    const pr = report.deliveries.find((d) => d.event === 'pr' && d.resend === undefined)!
    expect(paid.provider_event_id).toEqual({ value: expect.stringMatching(/^evt_/), where: 'body.id' })
    expect(pr.provider_event_id?.where).toBe('x-github-delivery')
    expect(stdout).toContain(`paid charge.succeeded ${paid.provider_event_id!.value} (body.id; Hookloop event ${paid.event_id}) → stripe (loop): succeeded after 2 attempts`)
    expect(stdout).toContain(`pr pull_request.opened ${pr.provider_event_id!.value} (x-github-delivery) → github (loop): failed after 1 attempt`)
    // GitHub's delivery id is Hookloop's event id itself: the one id both logs show.
    expect(pr.provider_event_id!.value).toBe(pr.event_id)
  })
})
