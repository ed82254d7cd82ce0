import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createClock, createScaledClock, createVirtualClock, holdWork, MinHeap, waitingOnClock, createRealClock, type RealTime } from '../../../electron/engine/clock'

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

// Real time the test moves by hand, so a hold limit expires exactly when the test says (a busy
// machine cannot make it expire early, nor a quiet one keep it alive).
function manualRealTime(): RealTime & { advance(ms: number): void; pending(): number[] } {
  let now = 0
  const timers: { at: number; fn: () => void; live: boolean }[] = []
  return {
    now: () => now,
    setTimer(delayMs, fn) {
      const timer = { at: now + delayMs, fn, live: true }
      timers.push(timer)
      return { cancel: () => void (timer.live = false) }
    },
    advance(ms) {
      now += ms
      for (const timer of timers) {
        if (!timer.live || timer.at > now) continue
        timer.live = false
        timer.fn()
      }
    },
    pending: () => timers.filter((timer) => timer.live).map((timer) => timer.at),
  }
}

describe('virtual clock', () => {
  it('fires timers in due order, each at exactly its time; equal times in the order they were set', async () => {
    const clock = createVirtualClock({ start: 1_000 })
    const fired: Array<[string, number]> = []
    clock.setTimer(500, () => fired.push(['b', clock.now()]))
    clock.setTimer(100, () => fired.push(['a', clock.now()]))
    clock.setTimer(500, () => fired.push(['c', clock.now()]))
    await clock.sleep(3_600_000)
    expect(fired).toEqual([
      ['a', 1_100],
      ['b', 1_500],
      ['c', 1_500],
    ])
    expect(clock.now()).toBe(3_601_000)
    expect(clock.pendingTimers()).toBe(0)
  })

  it('timers set by a firing timer run at their own exact times (a chain of 14.5 h in steps)', async () => {
    const clock = createVirtualClock({ start: 0 })
    const seen: number[] = []
    await new Promise<void>((resolve) => {
      const step = (n: number) => {
        seen.push(clock.now())
        if (n === 10) return resolve()
        clock.setTimer(Math.min(2 ** n, 360) * 60_000, () => step(n + 1))
      }
      step(1)
    })
    expect(seen.map((t) => t / 60_000)).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 870])
  })

  it('does not jump while real work holds it, and jumps once released', async () => {
    const clock = createVirtualClock({ start: 0 })
    let fired = false
    const release = clock.hold()
    clock.setTimer(10_000, () => (fired = true))
    await turns(50)
    expect(fired).toBe(false)
    expect(clock.now()).toBe(0)
    release()
    release() // harmless twice
    await clock.sleep(10_000)
    expect(fired).toBe(true)
  })

  it('a hold parked by waiting(key) no longer blocks; resuming blocks again', async () => {
    const clock = createVirtualClock({ start: 0 })
    const release = clock.hold({ key: 'attempt-7' })
    let fired = 0
    clock.setTimer(1_000, () => fired++)
    await turns(30)
    expect(fired).toBe(0)
    const resume = clock.waiting('attempt-7')
    await turns(30)
    expect(fired).toBe(1)
    resume()
    clock.setTimer(1_000, () => fired++)
    await turns(30)
    expect(fired).toBe(1)
    release()
    await turns(30)
    expect(fired).toBe(2)
    expect(clock.now()).toBe(2_000)
  })

  it('a hold with maxRealMs stops blocking on its own', async () => {
    const clock = createVirtualClock({ start: 0 })
    clock.hold({ maxRealMs: 5 })
    await clock.sleep(60_000)
    expect(clock.now()).toBe(60_000)
  })

  it('a hold that is never released (a leak) stops blocking after holdLimitMs and is counted', async () => {
    const real = manualRealTime()
    const clock = createVirtualClock({ start: 0, holdLimitMs: 20, realTime: real })
    clock.hold() // its owner never releases it
    expect(real.pending()).toEqual([20]) // its limit is the clock's holdLimitMs, in real time
    let fired = false
    clock.setTimer(30_000, () => (fired = true))
    await turns(30)
    real.advance(19) // just short of the limit: still blocking
    await turns(30)
    expect(fired).toBe(false)
    expect(clock.inspect()).toMatchObject({ now: 0, blocked: true, holds: [{ key: 'anonymous', count: 1, parked: false }], expiredHolds: 0 })
    const slept = clock.sleep(30_000) // resolves only once the leaked hold has expired
    real.advance(1)
    await slept
    expect(fired).toBe(true)
    expect(clock.inspect()).toMatchObject({ now: 30_000, blocked: false, holds: [], expiredHolds: 1, pendingTimers: 0, nextTimerAt: null })
  })

  it('a released hold is not counted as expired, and its limit timer never releases a later hold', async () => {
    const clock = createVirtualClock({ start: 0, holdLimitMs: 20 })
    clock.hold()()
    const second = clock.hold({ key: 'attempt-1', maxRealMs: 60_000 })
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(clock.inspect()).toMatchObject({ blocked: true, holds: [{ key: 'attempt-1', count: 1, parked: false }], expiredHolds: 0 })
    const resume = clock.waiting('attempt-1')
    clock.setTimer(5_000, () => {})
    expect(clock.inspect()).toMatchObject({ blocked: false, holds: [{ key: 'attempt-1', count: 1, parked: true }], pendingTimers: 1, nextTimerAt: 5_000 })
    resume()
    second()
    expect(clock.inspect().holds).toEqual([])
  })

  it('a keyed hold queued behind parked work stops blocking after transitMs (the tunnel-socket cycle)', async () => {
    const clock = createVirtualClock({ start: 0, transitMs: 20 })
    clock.hold({ key: 'sleeping', maxRealMs: 60_000 })
    const resume = clock.waiting('sleeping') // the receiver sleeps on the clock for this one
    clock.hold({ key: 'queued', maxRealMs: 60_000 }) // never reaches the receiver: no socket is free
    let fired = false
    clock.setTimer(5_000, () => (fired = true))
    await clock.sleep(5_000)
    expect(fired).toBe(true)
    expect(clock.inspect()).toMatchObject({ blocked: false, expiredHolds: 0, holds: [{ key: 'sleeping', parked: true, queued: false }, { key: 'queued', parked: false, queued: true }] })
    resume()
  })

  it('a keyed hold that arrived (real work in flight at the receiver) keeps blocking past transitMs, even beside parked work', async () => {
    const clock = createVirtualClock({ start: 0, transitMs: 5 })
    clock.hold({ key: 'sleeping', maxRealMs: 60_000 })
    const resume = clock.waiting('sleeping')
    const release = clock.hold({ key: 'forwarding', maxRealMs: 60_000 })
    clock.arrived('forwarding') // the receiver has it and forwards it to a slow app
    let fired = false
    clock.setTimer(1_000, () => (fired = true))
    await new Promise((resolve) => setTimeout(resolve, 40))
    await turns(20)
    expect(fired).toBe(false)
    expect(clock.inspect()).toMatchObject({ blocked: true, holds: [{ key: 'sleeping', parked: true }, { key: 'forwarding', parked: false, queued: false }] })
    release()
    await clock.sleep(1_000)
    expect(fired).toBe(true)
    resume()
  })

  it('without parked work a keyed hold keeps blocking past transitMs', async () => {
    const clock = createVirtualClock({ start: 0, transitMs: 5 })
    const release = clock.hold({ key: 'in-transit', maxRealMs: 60_000 })
    let fired = false
    clock.setTimer(1_000, () => (fired = true))
    await new Promise((resolve) => setTimeout(resolve, 40))
    await turns(20)
    expect(fired).toBe(false)
    expect(clock.inspect()).toMatchObject({ blocked: true, holds: [{ key: 'in-transit', parked: false, queued: false }] })
    release()
    await clock.sleep(1_000)
    expect(fired).toBe(true)
  })

  it('an aborted sleep rejects with the reason and its timer never fires', async () => {
    const clock = createVirtualClock({ start: 0 })
    const controller = new AbortController()
    const sleeping = clock.sleep(5_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(sleeping).rejects.toThrow('stop')
    expect(clock.pendingTimers()).toBe(0)
    const cancelled = clock.setTimer(10, () => {
      throw new Error('must not fire')
    })
    cancelled.cancel()
    await clock.sleep(20)
    expect(clock.now()).toBe(20)
  })

  it('dispose drops every timer', async () => {
    const clock = createVirtualClock({ start: 0 })
    let fired = false
    clock.setTimer(1, () => (fired = true))
    clock.dispose()
    await turns(20)
    expect(fired).toBe(false)
  })
})

describe('clock helpers', () => {
  it('holdWork / waitingOnClock do nothing on real and scaled clocks', () => {
    expect(() => holdWork(createRealClock())()).not.toThrow()
    expect(() => waitingOnClock(createScaledClock({ factor: 10 }), 'k')()).not.toThrow()
  })

  it('a scaled clock reports scaled time: a 5 000 ms clock timer has seen at least 5 000 clock ms pass', async () => {
    const clock = createScaledClock({ factor: 100, start: 0 })
    await clock.sleep(5_000)
    expect(clock.now()).toBeGreaterThanOrEqual(5_000)
    expect(clock.mode).toBe('scaled')
  })

  it('createClock builds each mode and refuses a bad factor', () => {
    expect(createClock({ mode: 'virtual', start: 5 }).now()).toBe(5)
    expect(createClock({ mode: 'real' }).mode).toBe('real')
    expect(() => createClock({ mode: 'scaled', factor: 0 })).toThrow(/positive factor/)
  })
})

describe('MinHeap', () => {
  it('pops in (priority, tie) order for any sequence of pushes and pops', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 5 })), fc.constant(null)), { maxLength: 300 }), (ops) => {
        const heap = new MinHeap<string>()
        const model: Array<[number, number]> = []
        for (const op of ops) {
          if (op === null) {
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1])
            const expected = model.shift()
            const got = heap.pop()
            expect(got).toBe(expected ? `${expected[0]}:${expected[1]}` : undefined)
          } else {
            heap.push(op[0], op[1], `${op[0]}:${op[1]}`)
            model.push(op)
          }
          expect(heap.size).toBe(model.length)
        }
      }),
    )
  })
})
