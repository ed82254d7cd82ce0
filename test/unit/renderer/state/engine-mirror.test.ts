// Each pushed state event replaces its own part of the window's snapshot and nothing else; a
// scenario run's report marks only the run's own deliveries (on the Scenarios page), no timeline row.
import { describe, expect, it } from 'vitest'
import type { EventMessage, Snapshot } from '../../../../shared/contract'
import type { ScenarioReport } from '../../../../shared/scenario'
import { applyBatch, useApp } from '../../../../renderer/src/state'

const before = {
  endpoints: ['endpoints before'],
  rules: ['rules before'],
  subscriptions: ['subscriptions before'],
  tunnel: 'tunnel before',
  clock: 'clock before',
  simulations: [],
  recording: 'recording before',
  scenarioRun: null,
  schemes: ['standard-webhooks'],
} as unknown as Snapshot

const report = {
  deliveries: [{ event: 'e1', subscription: 's', event_id: 'evt_1' }],
  expectations: [{ subject: { kind: 'delivery', event: 'e1', subscription: 's', field: 'status' }, ok: true, message: '' }],
} as unknown as ScenarioReport

// Each state event, and the snapshot field it must replace with what.
const cases: [EventMessage, keyof Snapshot, unknown][] = [
  [{ name: 'endpoints.changed', payload: { endpoints: ['endpoints after'] } } as never, 'endpoints', ['endpoints after']],
  [{ name: 'rules.changed', payload: { rules: ['rules after'] } } as never, 'rules', ['rules after']],
  [{ name: 'subscriptions.changed', payload: { subscriptions: ['subscriptions after'] } } as never, 'subscriptions', ['subscriptions after']],
  [{ name: 'tunnel.state', payload: 'tunnel after' } as never, 'tunnel', 'tunnel after'],
  [{ name: 'clock.state', payload: 'clock after' } as never, 'clock', 'clock after'],
  [{ name: 'simulations.changed', payload: { simulations: [{ id: 'sim-1' }] } } as never, 'simulations', [{ id: 'sim-1' }]],
  [{ name: 'recording.state', payload: 'recording after' } as never, 'recording', 'recording after'],
  [{ name: 'scenario.progress', payload: { state: 'running', report: null } } as never, 'scenarioRun', { state: 'running', report: null }],
]

describe('applyBatch on state events', () => {
  it.each(cases)('%o replaces only its part of the snapshot', (event, field, value) => {
    useApp.setState({ snapshot: before })
    applyBatch([event])
    const snapshot = useApp.getState().snapshot as unknown as Record<string, unknown>
    expect(snapshot[field]).toEqual(value)
    for (const [other, kept] of Object.entries(before)) if (other !== field) expect(snapshot[other]).toBe(kept)
  })

  it('keeps no snapshot before the first one is read', () => {
    useApp.setState({ snapshot: null })
    applyBatch(cases.map(([event]) => event))
    expect(useApp.getState().snapshot).toBeNull()
  })

  it('a finished run marks no timeline row, not even one with its event id: its rows are in a store of its own', () => {
    useApp.setState({ snapshot: before })
    applyBatch([{ name: 'scenario.progress', payload: { state: 'passed', report } } as never])
    expect(useApp.getState().snapshot?.scenarioRun).toEqual({ state: 'passed', report })
    expect(Object.keys(useApp.getState())).not.toContain('verdicts')
  })
})
