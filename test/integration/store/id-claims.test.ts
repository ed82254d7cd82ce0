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
