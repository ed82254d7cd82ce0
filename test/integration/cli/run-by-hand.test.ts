// Hand-written scenarios for both seeds through the real `hookloop run` (out/main/cli.js): exact
// times, durations, decisions, headers and bodies; an empty scenario fails unless a smoke run.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXAMPLES, runCli } from './support'

const dir = mkdtempSync(join(tmpdir(), 'hookloop-by-hand-'))

function withExpect(file: string, change: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Record<string, unknown>
  change(doc)
  const out = join(dir, `${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(out, JSON.stringify(doc))
  return out
}

describe('hookloop run on hand-written seed scenarios', () => {
  it('seed A by hand: timeout at exactly 10 000 ms, retry at 130 s, resend is dup #3; defaults listed', async () => {
    const result = await runCli(['run', join(EXAMPLES, 'provider-a-by-hand.json')])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('PASS: 25 of 25 expectations hold')
    expect(result.stderr).toContain('subscriptions[0].policy: defaults applied: redirects not followed, retry_after not honoured')
  })

  it('seed B by hand: failed_permanent after 4 attempts 30 s apart', async () => {
    const result = await runCli(['run', join(EXAMPLES, 'provider-b-by-hand.json'), '--json'])
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as { deliveries: { status: string; status_word: string }[] }
    expect(report.deliveries[0]).toMatchObject({ status: 'failed', status_word: 'failed_permanent' })
  })

  it('a wrong header, body field and duration fail with expected vs actual and the JSON path', async () => {
    const file = withExpect('provider-a-by-hand.json', (doc) => {
      const expectations = doc.expect as { deliveries: Record<string, unknown>[]; endpoints: { arrivals: Record<string, unknown>[] }[] }
      expectations.deliveries[0]!.durations_ms = [9000, 0]
      expectations.endpoints[0]!.arrivals[0]!.headers = { 'X-Pandoktorek-Event-Id': 'nope' }
      expectations.endpoints[0]!.arrivals[0]!.body = { 'payload.booking_id': 1 }
    })
    const result = await runCli(['run', file])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('attempt 1 took 10000 ms, expected 9000 ms  [expect.deliveries[0].durations_ms]')
    expect(result.stdout).toContain('header X-Pandoktorek-Event-Id is "3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c", expected "nope"  [expect.endpoints[0].arrivals[0].headers["X-Pandoktorek-Event-Id"]]')
    expect(result.stdout).toContain('body payload.booking_id is 4711, expected 1  [expect.endpoints[0].arrivals[0].body["payload.booking_id"]]')
  })

  it('an empty scenario fails with "no expectations" unless it is a smoke run', async () => {
    const empty = withExpect('provider-b-by-hand.json', (doc) => {
      delete doc.expect
    })
    const failed = await runCli(['run', empty])
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('FAIL: no expectations')
    const smoke = withExpect('provider-b-by-hand.json', (doc) => {
      delete doc.expect
      doc.smoke = true
    })
    const passed = await runCli(['run', smoke])
    expect(passed.code).toBe(0)
  })
})
