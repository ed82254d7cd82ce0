// The scenario a recording becomes, from plain records: step order kept on a clock that stood
// still, expectations from the outcome, a stop mid-retry judged at the same moment, notes.
import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import { buildScenario, localName, toleranceFor, type BuildInput, type DeliveryOutcome, type RecordedStep } from '../../../electron/engine/recorder/build-scenario'

const START = Date.parse('2026-11-29T10:00:00Z')
const EVENT_ID = '3b241101-e2bb-4255-8caf-4136c566a962'

function input(steps: RecordedStep[], deliveries: Record<number, DeliveryOutcome>, extra: Partial<BuildInput> = {}): BuildInput {
  return {
    name: 'recorded',
    clock: { mode: 'virtual' },
    startedAt: START,
    stoppedAt: START + 1_000_000,
    steps,
    endpoints: new Map([['ep1', { id: 'ep1', definition: { slug: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], dedupe: { type: 'header', name: 'webhook-id' }, rules: [{ preset: 'fail-first', n: 1 }] } }]]),
    subscriptions: new Map([['sub1', { id: 'sub1', local: 'shop-feed', endpointId: 'ep1', jitter: false, definition: { endpoint: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'pandoktorek' } }]]),
    delivery: (id) => deliveries[id],
    notes: [],
    ...extra,
  }
}

const succeeded: DeliveryOutcome = {
  id: 1,
  subscriptionId: 'sub1',
  duplicateOf: null,
  status: 'succeeded',
  attempts: [
    { n: 1, startedAt: START, outcome: 'http_503', verifyReason: 'ok', duplicateNumber: 1 },
    { n: 2, startedAt: START + 120_000, outcome: 'http_200', verifyReason: 'ok', duplicateNumber: 2 },
  ],
}

describe('buildScenario', () => {
  it('writes a valid scenario with the outcome as expectations', () => {
    const scenario = buildScenario(input([{ kind: 'event', at: START, eventId: EVENT_ID, type: 'booking.created', payload: { a: 1 }, faults: [], subscriptionId: 'sub1', deliveryIds: [1] }], { 1: succeeded }))
    expect(validateScenario(scenario).ok).toBe(true)
    expect(scenario.clock).toEqual({ mode: 'virtual', start: '2026-11-29T10:00:00.000Z' })
    expect(scenario.max_duration_ms).toBeUndefined()
    expect(scenario.expect?.deliveries?.[0]).toEqual({
      event: 'e1',
      subscription: 'shop-feed',
      status: 'succeeded',
      attempts: 2,
      at_ms: [0, 120_000],
      outcomes: ['http_503', 'http_200'],
      duplicates: [1, 2],
      duplicates_flagged: 1,
      signatures: 'ok',
    })
  })

  it('spreads steps done at one instant 1 ms apart, in the order they were done, and widens the tolerance to match', () => {
    const failed: DeliveryOutcome = { ...succeeded, status: 'failed', attempts: [{ n: 1, startedAt: START, outcome: 'http_410', verifyReason: 'ok', duplicateNumber: 1 }, { n: 2, startedAt: START, outcome: 'http_410', verifyReason: 'ok', duplicateNumber: 2 }] }
    const scenario = buildScenario(
      input(
        [
          { kind: 'pause', at: START, subscriptionId: 'sub1' },
          { kind: 'event', at: START, eventId: EVENT_ID, type: 't', payload: null, faults: [], subscriptionId: 'sub1', deliveryIds: [1] },
          { kind: 'resume', at: START, subscriptionId: 'sub1' },
          { kind: 'retry-now', at: START, deliveryId: 1 },
        ],
        { 1: failed },
      ),
    )
    expect(scenario.actions?.map((a) => [a.type, a.at_ms])).toEqual([
      ['pause', 0],
      ['resume', 2],
      ['retry-now', 3],
    ])
    expect(scenario.events?.[0]?.at_ms).toBe(1)
    expect(scenario.expect?.deliveries?.[0]?.tolerance_ms).toBe(3)
    expect(validateScenario(scenario).ok).toBe(true)
  })

  it('a stop while a delivery still retries sets max_duration_ms at that moment; jitter leaves the times out', () => {
    const retrying: DeliveryOutcome = { ...succeeded, status: 'retrying', attempts: [succeeded.attempts[0]!] }
    const base = input([{ kind: 'event', at: START, eventId: EVENT_ID, type: 't', payload: null, faults: [], subscriptionId: 'sub1', deliveryIds: [1] }], { 1: retrying })
    const sub = base.subscriptions.get('sub1')!
    const scenario = buildScenario({ ...base, stoppedAt: START + 60_000, subscriptions: new Map([['sub1', { ...sub, jitter: true }]]) })
    expect(scenario.max_duration_ms).toBe(60_000)
    expect(scenario.expect?.deliveries?.[0]).toMatchObject({ status: 'retrying', attempts: 1 })
    expect(scenario.expect?.deliveries?.[0]?.at_ms).toBeUndefined()
  })

  it('notes what it cannot say: Retry now on a delivery sent before the recording', () => {
    const notes: string[] = []
    const scenario = buildScenario(input([{ kind: 'event', at: START, eventId: EVENT_ID, type: 't', payload: null, faults: [], subscriptionId: 'sub1', deliveryIds: [1] }, { kind: 'retry-now', at: START + 5, deliveryId: 99 }], { 1: succeeded }, { notes }))
    expect(scenario.actions).toBeUndefined()
    expect(notes).toEqual(['Retry now on delivery #99, which was not sent while recording; left out'])
  })

  it('tolerance per clock and names the format accepts', () => {
    expect(toleranceFor({ mode: 'virtual' })).toBe(0)
    expect(toleranceFor({ mode: 'scaled', factor: 60 })).toBe(15_000)
    expect(toleranceFor({ mode: 'real' })).toBe(1000)
    expect(localName('Clinic feed #1', new Set())).toBe('Clinic-feed-1')
    expect(localName('feed', new Set(['feed']))).toBe('feed-2')
    expect(localName('---', new Set())).toBe('sub')
  })
})
