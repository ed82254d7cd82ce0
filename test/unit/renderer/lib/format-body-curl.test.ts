import { describe, expect, it } from 'vitest'
import { curlCommand } from '../../../../shared/curl'
import { bodyText, hexDump, prettyJson } from '../../../../renderer/src/lib/body'
import { axisTicks, formatDuration } from '../../../../renderer/src/lib/format'

describe('formatting', () => {
  it('says durations the way the seed tables do', () => {
    expect(formatDuration(250)).toBe('250 ms')
    expect(formatDuration(10_000)).toBe('10 s')
    expect(formatDuration(120_000)).toBe('2 min')
    expect(formatDuration(52_200_000)).toBe('15 h')
    expect(formatDuration(5_400_000)).toBe('1.5 h')
  })

  it('picks round axis ticks', () => {
    expect(axisTicks(0, 60_000, 6)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000])
    expect(axisTicks(0, 0, 6)).toEqual([])
  })
})

describe('bodies', () => {
  it('pretty-prints JSON and leaves anything else alone', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}')
    expect(prettyJson('not json')).toBeNull()
    expect(prettyJson('')).toBeNull()
  })

  it('dumps bytes as hex with printable characters', () => {
    const dump = hexDump(new Uint8Array([0x48, 0x69, 0x00, 0xff]))
    expect(dump).toBe(`00000000  48 69 00 ff${' '.repeat(36)}  Hi..`)
    expect(bodyText(new Uint8Array([0xe2, 0x9c, 0x93]))).toBe('✓')
  })
})

describe('copy as cURL', () => {
  it('quotes headers and the body for a POSIX shell and skips hop-by-hop headers', () => {
    const command = curlCommand({
      method: 'POST',
      url: 'http://127.0.0.1:4000/h/orders',
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'host', value: 'example' },
        { name: 'x-note', value: "it's" },
      ],
      body: new TextEncoder().encode('{"a":"b"}'),
    })
    expect(command).toBe(`curl -X POST 'http://127.0.0.1:4000/h/orders' -H 'content-type: application/json' -H 'x-note: it'\\''s' --data-binary '{"a":"b"}'`)
  })

  it('pipes a body that is not UTF-8 through printf so no byte changes', () => {
    const command = curlCommand({ method: 'POST', url: 'http://x/', headers: [], body: new Uint8Array([0x00, 0xff, 0x0a]) })
    expect(command).toBe(`printf '\\x00\\xff\\x0a' | curl -X POST 'http://x/' --data-binary @-`)
  })
})
