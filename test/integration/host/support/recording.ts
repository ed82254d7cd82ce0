import { expect } from 'vitest'
import { parseScenario, type Scenario } from '../../../../shared/scenario'
import { runScenario } from '../../../../electron/engine/scenarios/run'
import type { HostSession } from './session'

/** A host session on the virtual clock with a recording running. */
export async function recordingSession(openSession: () => Promise<HostSession>): Promise<HostSession> {
  const session = await openSession()
  await session.call('clock.set', { mode: 'virtual' })
  await session.call('record.start', {})
  return session
}

/** Stops the recording and replays the scenario it made headless: it must parse, and every expectation it wrote must hold. */
export async function replayRecording(call: HostSession['call']): Promise<{ scenario: Scenario; report: Awaited<ReturnType<typeof runScenario>> }> {
  const recorded = await call('record.stop', {})
  expect(recorded.problems).toEqual([])
  const parsed = parseScenario(recorded.text)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  const report = await runScenario(parsed.scenario)
  expect(report.expectations.filter((e) => !e.ok)).toEqual([])
  expect(report.ok).toBe(true)
  return { scenario: parsed.scenario, report }
}
