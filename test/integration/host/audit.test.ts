// The audit of the desktop app's engine (no accounts) over the real control socket: each change is
// recorded as `local` via `app`, a rule edit with the rule and the revision it was made on; a read
// and a command that failed are not; recording goes on after a clock switch rebuilds the engine,
// and its times stay wall times on a virtual clock.
import { describe, expect, it } from 'vitest'
import { useHostSessions } from './support/session'

const openSession = useHostSessions()

describe('the audit through the host', () => {
  it('records the app’s changes as local, not its reads nor a failed command', async () => {
    const { call } = await openSession()
    const startedAt = Date.now()
    const endpoint = await call('endpoint.create', { name: 'Shop', scheme: null, secrets: [], dedupe: null })
    const rule = await call('rule.addPreset', { endpointId: endpoint.id, preset: 'slow' })
    await call('rule.update', { id: rule.id, definition: rule.definition as Record<string, unknown>, revision: rule.revision })
    await call('snapshot', {})
    await expect(call('rule.delete', { id: 'no-such-rule' })).rejects.toThrow(/does not exist/)
    await call('clock.set', { mode: 'virtual' })
    await call('rule.setEnabled', { id: rule.id, enabled: false })

    const { entries, total } = await call('audit.list', {})
    expect(total).toBe(5)
    expect(entries.map((e) => [e.actor, e.via, e.command])).toEqual([
      ['local', 'app', 'rule.setEnabled'],
      ['local', 'app', 'clock.set'],
      ['local', 'app', 'rule.update'],
      ['local', 'app', 'rule.addPreset'],
      ['local', 'app', 'endpoint.create'],
    ])
    expect(entries[2]).toMatchObject({ target: { kind: 'rule', id: rule.id }, summary: `rule.update · rule ${rule.id} · from revision ${rule.revision}`, detail: { id: rule.id, revision: rule.revision } })
    expect(entries[0]?.summary).toBe(`rule.setEnabled · rule ${rule.id} · disabled`)
    // Wall times, on a virtual clock too.
    for (const e of entries) expect(e.at).toBeGreaterThanOrEqual(startedAt)
    expect((await call('audit.list', { command: 'clock.set' })).entries[0]?.detail).toMatchObject({ mode: 'virtual' })
  })
})
