// Scenarios made from a provider's HAR (requests captured on our endpoint, no rules in the file)
// run on a real engine and reproduce what the file recorded: a resend numbered dup #2, a request
// signed with the wrong secret, a timeout and a reset — every expectation holds.
import { describe, expect, it } from 'vitest'
import { fillPlaceholders } from '../../../shared/scenario'
import { validateScenario } from '../../../shared/scenario'
import { parseIncident } from '../../../electron/engine/exports/incident'
import { incidentToScenario } from '../../../electron/engine/scenarios/from-incident'
import { runScenario } from '../../../electron/engine/scenarios/run'

const T0 = Date.parse('2026-03-02T08:00:00Z')
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

function entry(at: number, id: string, body: unknown, outcome: string, verify: string, duplicate: number) {
  const status = /^http_(\d+)$/.exec(outcome)
  return {
    startedDateTime: new Date(T0 + at).toISOString(),
    time: 2,
    request: { method: 'POST', url: 'https://t.example/h/clinic', headers: [{ name: 'webhook-id', value: id }, { name: 'webhook-signature', value: '[redacted]' }], postData: { mimeType: 'application/json', text: JSON.stringify(body) } },
    response: { status: status ? Number(status[1]) : 0 },
    _hookloop: { source: 'request', id: 1, endpoint: 'clinic', outcome, verify: { valid: verify === 'ok', reason: verify }, duplicate_number: duplicate },
  }
}

async function runIncident(entries: unknown[]) {
  const { scenario } = incidentToScenario(parseIncident(JSON.stringify({ log: { version: '1.2', entries } })))
  const filled = fillPlaceholders(scenario, () => SECRET)
  if (!filled.ok) throw new Error('unfilled')
  const checked = validateScenario(filled.document)
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
  return runScenario(checked.scenario, { file: 'incident.json' })
}

describe('a provider HAR as a scenario, on a real engine', () => {
  it('reproduces the answers, the resend as dup #2 and the wrong-secret verdict', async () => {
    const report = await runIncident([
      entry(0, 'msg_1', { type: 'booking.created', id: 1 }, 'http_503', 'ok', 1),
      entry(0, 'msg_2', { type: 'booking.cancelled', id: 2 }, 'http_200', 'signature_mismatch', 1),
      entry(120_000, 'msg_1', { type: 'booking.created', id: 1 }, 'http_200', 'ok', 2),
      entry(130_000, 'msg_3', { type: 'booking.moved', id: 3 }, 'timed_out', 'ok', 1),
      entry(150_000, 'msg_4', { type: 'booking.moved', id: 4 }, 'reset', 'ok', 1),
    ])
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.deliveries.map((d) => d.attempts.map((a) => a.outcome))).toEqual([['http_503'], ['http_200'], ['http_200'], ['timeout'], ['reset']])
    expect(report.expectations.length).toBeGreaterThanOrEqual(6)
  })
})
