import type { LookupAddress } from 'node:dns'
import { describe, expect, it } from 'vitest'
import { tunnelLookup } from '../../../electron/engine/tunnel/lookup'

function lookup(name: string, all: boolean): Promise<unknown> {
  return new Promise((resolve, reject) =>
    tunnelLookup(name, { all }, (err: Error | null, address: string | LookupAddress[], family?: number) => (err ? reject(err) : resolve(all ? address : [address, family]))),
  )
}

describe('tunnelLookup', () => {
  it('resolves names under .localhost to 127.0.0.1 (RFC 6761), in both answer shapes', async () => {
    expect(await lookup('abcd.localhost', false)).toEqual(['127.0.0.1', 4])
    expect(await lookup('ABCD.LOCALHOST', true)).toEqual([{ address: '127.0.0.1', family: 4 }])
    expect(await lookup('localhost', false)).toEqual(['127.0.0.1', 4])
  })
  it('leaves other names to the system resolver', async () => {
    expect(await lookup('127.0.0.1', false)).toEqual(['127.0.0.1', 4])
  })
})
