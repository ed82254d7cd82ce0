// Progress of long work on stderr: one line rewritten in place on a terminal, cleared at the end;
// nothing at all on a stream that is not a terminal (a pipe or a file).
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { stderrProgress } from '../../../electron/cli/progress'
import { parseSince } from '../../../electron/cli/list-filters'

/** What stderrProgress writes to a stream (a terminal or not) for these updates and its end. */
function drawn(isTTY: boolean, label: string, updates: Array<[done: number, total: number, what: string]>): string {
  const chunks: string[] = []
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString())
      done()
    },
  }) as unknown as NodeJS.WriteStream
  ;(writable as { isTTY?: boolean }).isTTY = isTTY
  const progress = stderrProgress(label, writable)
  for (const [done, total, what] of updates) progress.update(done, total, what)
  progress.end()
  return chunks.join('')
}

describe('stderrProgress', () => {
  it('draws done/total on one line of a terminal and clears it', () => {
    expect(drawn(true, 'export', [[200, 500, 'rows read'], [500, 500, 'rows read']])).toBe('\r\x1b[2Kexport: 200/500 rows read\r\x1b[2Kexport: 500/500 rows read\r\x1b[2K')
  })

  it('writes nothing when the stream is not a terminal', () => {
    expect(drawn(false, 'prune', [[1, 2, 'requests deleted'], [2, 2, 'requests deleted']])).toBe('')
  })
})

describe('parseSince', () => {
  const now = Date.UTC(2026, 11, 2, 12, 0, 0)
  it('reads a duration back from now, or an ISO time', () => {
    expect(parseSince('requests', '15m', now)).toBe(now - 15 * 60_000)
    expect(parseSince('requests', '2h', now)).toBe(now - 2 * 3_600_000)
    expect(parseSince('requests', '7d', now)).toBe(now - 7 * 86_400_000)
    expect(parseSince('requests', '2026-12-01T09:30:00Z', now)).toBe(Date.UTC(2026, 11, 1, 9, 30))
    expect(parseSince('requests', '2026-12-01', now)).toBe(Date.UTC(2026, 11, 1))
  })
  it('names a value that is neither', () => {
    expect(() => parseSince('deliveries', '15', now)).toThrow(/deliveries: --since takes a duration .*"15" is neither/)
    expect(() => parseSince('deliveries', '2026-13-45', now)).toThrow(/"2026-13-45" is neither/)
  })
})
