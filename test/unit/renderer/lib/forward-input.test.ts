import { describe, expect, it } from 'vitest'
import { parseHeaderLines, splitTargets } from '../../../../renderer/src/lib/forward-input'

describe('forward mode input', () => {
  it('reads several targets from one field', () => {
    expect(splitTargets(' http://127.0.0.1:3000/a, http://127.0.0.1:3001/b\nhttp://x.test ')).toEqual(['http://127.0.0.1:3000/a', 'http://127.0.0.1:3001/b', 'http://x.test'])
    expect(splitTargets('  ')).toEqual([])
  })

  it('reads headers to set, and names the line that is not a header', () => {
    expect(parseHeaderLines('X-Test: 1\n\nwebhook-id:  msg_2 ')).toEqual({ headers: [{ name: 'X-Test', value: '1' }, { name: 'webhook-id', value: 'msg_2' }], problem: null })
    expect(parseHeaderLines('X-Test: 1\nno colon here').problem).toBe('headers, line 2: write it as "Name: value"')
    expect(parseHeaderLines(': value').problem).toBe('headers, line 1: write it as "Name: value"')
  })
})
