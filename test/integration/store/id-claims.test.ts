// Ids claimed from one SQLite file by two connections (as two processes do): blocks never overlap,
// a process alone numbers on without gaps, and a restart after a clean close continues the count.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createIdSource } from '../../../electron/engine/store/id-source'
import { openDatabase } from '../../../electron/engine/store'
import { createIdClaims } from '../../../electron/engine/store/id-claims'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

function twoConnections() {
  const temp = makeTempDir('hookloop-id-claims-')
  cleanups.push(temp.cleanup)
  const file = join(temp.dir, 'hookloop.db')
  const a = openDatabase({ file })
  const b = openDatabase({ file })
  cleanups.push(() => a.close(), () => b.close())
  return { a, b }
}

describe('id claims', () => {
  it('never hands one id to two connections, whatever the interleaving', () => {
    const { a, b } = twoConnections()
    let clock = 0
    const sources = [createIdSource(createIdClaims(a, 'requests'), () => clock), createIdSource(createIdClaims(b, 'requests'), () => clock)]
    const taken = new Set<number>()
    for (let i = 0; i < 1000; i++) {
      clock += i % 7 === 0 ? 150 : 1 // now and then a pause longer than a block's lifetime
      const id = sources[(i * 7919) % 3 === 0 ? 1 : 0]!.next()
      expect(taken.has(id)).toBe(false)
      taken.add(id)
    }
  })

  it('counts on from rows already stored, gives unused ids back on release, and numbers 1, 2, 3 when alone', () => {
    const { a } = twoConnections()
    let clock = 0
    const first = createIdSource(createIdClaims(a, 'requests'), () => clock)
    expect([first.next(), first.next()]).toEqual([1, 2])
    clock += 1000
    expect(first.next()).toBe(3) // nobody else claimed: the block is still this source's
    first.release()
    const second = createIdSource(createIdClaims(a, 'requests'), () => clock)
    expect(second.next()).toBe(4)
  })

  it('alone, says no one else numbers rows here while its own rows are still unwritten; a second connection is seen', () => {
    const { a, b } = twoConnections()
    let clock = 0
    const one = createIdSource(createIdClaims(a, 'requests'), () => clock)
    // 200 ids through four blocks, none of their rows in the table yet (they wait in a writer).
    for (let i = 0; i < 200; i++) one.next()
    expect(one.sharing()).toBe(false)
    const two = createIdSource(createIdClaims(b, 'requests'), () => clock)
    expect(two.next()).toBe(257)
    // The first claim of the second finds ids claimed and not stored: held by someone else.
    expect(two.sharing()).toBe(true)
    // The first reads the claim counter again a few milliseconds on, and sees the second's claim.
    clock += 20
    expect(one.sharing()).toBe(true)
  })

  it('leaves a block another connection claimed after it, once it is old', () => {
    const { a, b } = twoConnections()
    let clock = 0
    const one = createIdSource(createIdClaims(a, 'requests'), () => clock)
    const two = createIdSource(createIdClaims(b, 'requests'), () => clock)
    expect(one.next()).toBe(1)
    expect(two.next()).toBe(65)
    clock += 1000
    expect(one.next()).toBe(129)
  })
})
