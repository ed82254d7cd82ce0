// The command line's spelling of a breakpoint: each word a matcher (or the limit and the expiry),
// and a word that is not one named in the refusal.
import { describe, expect, it } from 'vitest'
import { explainBreakpoint, parseBreakMatch, parseBreakpoint } from '../../../../shared/receiver'

describe('parseBreakMatch', () => {
  it('reads every key', () => {
    const input = parseBreakMatch("path=/h/pay method=POST header=x-a:b:c query=debug json.data.object.status=paid limit=7.5 expire=503")
    expect(input).toEqual({
      matchers: [
        { type: 'path', path: '/h/pay', prefix: true },
        { type: 'method', method: 'POST' },
        { type: 'header', name: 'x-a', value: 'b:c' },
        { type: 'query', name: 'debug' },
        { type: 'event-type', path: 'data.object.status', value: 'paid' },
      ],
      limitMs: 7500,
      onExpiry: { action: 'answer', status: 503 },
    })
    expect(explainBreakpoint(parseBreakpoint(input, 'b1'))).toBe('Hold path is under /h/pay and method is POST and header x-a is "b:c" and query parameter debug is present and data.object.status is "paid" on any endpoint for up to 7.5 s, then answer 503')
  })

  it('names the word it refuses', () => {
    expect(() => parseBreakMatch('colour=red')).toThrow(/^colour=red: unknown key "colour"/)
    expect(() => parseBreakMatch('path')).toThrow(/^path: expected KEY=VALUE/)
    expect(() => parseBreakMatch('limit=soon')).toThrow(/^limit=soon: limit is a number of seconds/)
    expect(() => parseBreakMatch('path=pay')).toThrow(/matchers/)
  })
})
