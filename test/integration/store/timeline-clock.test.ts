// The timeline's clock filter (docs/time.md) on a real SQLite file: a page of one clock's rows is
// read through deliveries_by_simulation, newest first, never by walking the whole history; wall
// rows include the receive-only groups, a simulation's do not.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { timelineParts, WALL_CLOCK } from '../../../electron/engine/store/timeline-reads'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

function store() {
  const temp = makeTempDir()
  const db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
  cleanups.push(() => {
    db.close()
    temp.cleanup()
  })
  return db
}

describe('the timeline clock filter', () => {
  it.each([
    ['wall', WALL_CLOCK],
    ['a simulation', '6f1c2d0e-0d7c-4a3b-9d55-0f6e1c7a2b11'],
  ])('reads one page of %s through deliveries_by_simulation, in id order without a sort', (_what, clock) => {
    const db = store()
    const parts = timelineParts({ clock })
    const deliveries = parts.deliveries!
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT d.id ${deliveries.from} ORDER BY d.id DESC LIMIT ?`).all(...deliveries.params, 50) as { detail: string }[]).map((r) => r.detail)
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX deliveries_by_simulation \(simulation_id[^)]*\)/)
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/)
    const count = (db.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) ${deliveries.from}`).all(...deliveries.params) as { detail: string }[]).map((r) => r.detail)
    expect(count.join('\n')).toMatch(/deliveries_by_simulation/)
  })

  it('keeps receive-only rows (real traffic) for the wall clock only', () => {
    expect(timelineParts({ clock: WALL_CLOCK }).received).not.toBeNull()
    expect(timelineParts({ clock: '6f1c2d0e-0d7c-4a3b-9d55-0f6e1c7a2b11' }).received).toBeNull()
    expect(timelineParts({}).received).not.toBeNull()
  })
})
