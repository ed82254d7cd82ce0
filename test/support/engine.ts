// A real engine for a test: a fresh data folder, a virtual clock, its receiver on a free loopback port.
import { createVirtualClock, type VirtualClock } from '../../electron/engine/clock'
import { createEngine, type Engine, type EngineEvent } from '../../electron/engine/engine'
import { makeTempDir } from './temp-dir'

export type TempDir = ReturnType<typeof makeTempDir>

/**
 * Which clock real traffic (and wall ages: retention) runs on: the real one, or the test's virtual
 * clock too, so a test can let days of wall time pass at once (docs/time.md).
 */
export type WallClockChoice = 'real' | 'same'

/** Opens (or opens again) the engine of a data folder on `clock`. */
export const openEngine = (dataDir: string, clock: VirtualClock, wall: WallClockChoice = 'real'): Promise<Engine> =>
  createEngine({ dataDir, clock, receiver: { host: '127.0.0.1', port: 0 }, ...(wall === 'same' ? { wallClock: clock } : {}) })

/** A fresh folder, a virtual clock from `start` (2026-01-01 by default), and the engine on them. */
export async function virtualEngine(start = Date.UTC(2026, 0, 1), wall: WallClockChoice = 'real'): Promise<{ temp: TempDir; clock: VirtualClock; engine: Engine }> {
  const temp = makeTempDir()
  const clock = createVirtualClock({ start })
  return { temp, clock, engine: await openEngine(temp.dir, clock, wall) }
}

/** Closes what virtualEngine opened (the engine the test ended with) and removes the folder. */
export async function closeEngine(engine: Engine, clock: VirtualClock, temp: TempDir): Promise<void> {
  await engine.close()
  clock.dispose()
  temp.cleanup()
}

/** Resolves when the engine emits an event that satisfies `test` (bounded by the test timeout). */
export function nextEvent(engine: Engine, test: (event: EngineEvent) => boolean): Promise<EngineEvent> {
  return new Promise((resolve) => {
    const off = engine.on((event) => {
      if (!test(event)) return
      off()
      resolve(event)
    })
  })
}
