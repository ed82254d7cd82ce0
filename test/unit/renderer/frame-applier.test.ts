// The renderer applies pushed events once per frame, merged by row key; when no frame comes (a
// hidden window) a timer flushes instead, so the queue stays bounded.
import { describe, expect, it } from 'vitest'
import type { EventMessage, TimelineRow } from '../../../shared/contract'
import { createFrameApplier, type FrameTimers } from '../../../renderer/src/state'

const row = (key: string, attempts: number) => ({ key, attempts }) as unknown as TimelineRow
const upsert = (...rows: TimelineRow[]): EventMessage => ({ name: 'timeline.upsert', payload: { rows } })

/** Frames and timers the test fires by hand. */
function manualTimers() {
  const frames = new Set<() => void>()
  const timeouts = new Set<() => void>()
  const timers: FrameTimers = {
    frame: (run) => (frames.add(run), () => frames.delete(run)),
    timeout: (run) => (timeouts.add(run), () => timeouts.delete(run)),
  }
  const fire = (set: Set<() => void>) => [...set].forEach((run) => run())
  return { timers, frames, timeouts, frame: () => fire(frames), timeout: () => fire(timeouts) }
}

describe('createFrameApplier', () => {
  it('applies on the next frame, each row once with its latest version, each state event once', () => {
    const t = manualTimers()
    const applied: EventMessage[][] = []
    const push = createFrameApplier((batch) => applied.push(batch), t.timers)
    push([upsert(row('a', 1), row('b', 1)), { name: 'clock.state', payload: { mode: 'real', scale: 1, now: 1 } }])
    push([upsert(row('a', 2)), { name: 'clock.state', payload: { mode: 'virtual', scale: 1, now: 2 } }])
    expect(applied).toEqual([])
    t.frame()
    expect(applied).toEqual([
      [
        { name: 'clock.state', payload: { mode: 'virtual', scale: 1, now: 2 } },
        { name: 'timeline.upsert', payload: { rows: [row('b', 1), row('a', 2)] } },
      ],
    ])
    // The timer of that flush was cancelled: nothing more is applied.
    expect(t.timeouts.size).toBe(0)
    t.timeout()
    expect(applied).toHaveLength(1)
  })

  it('flushes on the timer when no frame comes, and the queue holds one version per row meanwhile', () => {
    const t = manualTimers()
    const applied: EventMessage[][] = []
    const push = createFrameApplier((batch) => applied.push(batch), t.timers)
    for (let i = 1; i <= 1000; i++) push([upsert(row(`r${i % 10}`, i))])
    t.timeout()
    expect(applied).toHaveLength(1)
    const rows = applied[0]?.flatMap((e) => (e.name === 'timeline.upsert' ? e.payload.rows : []))
    expect(rows?.map((r) => r.key)).toHaveLength(10)
    expect(rows?.find((r) => r.key === 'r0')?.attempts).toBe(1000)
    expect(t.frames.size).toBe(0)
    // The next batch schedules afresh.
    push([upsert(row('x', 1))])
    t.frame()
    expect(applied).toHaveLength(2)
  })
})
