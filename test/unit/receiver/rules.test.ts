import { describe, expect, it } from 'vitest'
import { DefinitionError } from '../../../shared/receiver'
import { explainMatcher, explainRule, explainStep, parseRule, STEP_TYPES, MATCHER_TYPES, type Matcher, type Step } from '../../../shared/receiver'
import { expandPreset, parseRuleOrPreset, PRESET_IDS, RULE_PRESETS } from '../../../shared/receiver'

function errorOf(fn: () => unknown): DefinitionError {
  try {
    fn()
  } catch (error) {
    if (error instanceof DefinitionError) return error
    throw error
  }
  throw new Error('expected a DefinitionError')
}

describe('rule definitions', () => {
  it('accepts every step type and explains each one', () => {
    const steps: Step[] = [
      { type: 'delay', ms: 2000 },
      { type: 'reply', status: 503 },
      { type: 'timeout' },
      { type: 'timeout', ms: 15_000 },
      { type: 'close' },
      { type: 'reset' },
      { type: 'redirect', status: 301, location: 'https://example.test/new' },
      { type: 'drip', body: 'abc', interval_ms: 250 },
      { type: 'malformed', variant: 'bad-status-line' },
      { type: 'handshake', kind: 'x-crc' },
    ]
    expect(new Set(steps.map((s) => s.type))).toEqual(new Set(STEP_TYPES))
    expect(steps.map(explainStep)).toEqual([
      'wait 2 s',
      'reply 503',
      'hold the request open and never answer',
      'hold the request open 15 s, then close without answering',
      'close the connection without a response',
      'reset the connection (TCP RST)',
      'redirect 301 to https://example.test/new',
      'reply 200, sending the body 1 byte every 250 ms',
      'send an invalid HTTP response (bad-status-line)',
      'answer the X (Twitter) CRC handshake',
    ])
    for (const step of steps.slice(1)) expect(parseRule({ steps: [{ type: 'delay', ms: 1 }, step] }).steps).toHaveLength(2)
  })

  it('accepts every matcher type and explains each one', () => {
    const matchers: Matcher[] = [
      { type: 'method', method: 'post' },
      { type: 'path', path: '/h/a', prefix: true },
      { type: 'header', name: 'X-Mode', value: 'fail' },
      { type: 'query', name: 'crc_token' },
      { type: 'event-type', value: ['booking.created', 'booking.cancelled'] },
      { type: 'nth-arrival', n: [1, 3] },
      { type: 'every-nth', n: 3 },
      { type: 'probability', p: 0.3, seed: 7 },
    ]
    expect(new Set(matchers.map((m) => m.type))).toEqual(new Set(MATCHER_TYPES))
    expect(matchers.map(explainMatcher)).toEqual([
      'method is POST',
      'path is under /h/a',
      'header X-Mode is "fail"',
      'query parameter crc_token is present',
      'event_type is "booking.created" or "booking.cancelled"',
      'it is arrival #1 or #3 of its dedupe key',
      'every 3rd request',
      '30 % of requests (seed 7)',
    ])
    expect(parseRule({ matchers, steps: [{ type: 'reply', status: 200 }] }).matchers).toEqual(matchers)
  })

  it('refuses a final step that is not last, naming where', () => {
    const error = errorOf(() => parseRule({ steps: [{ type: 'delay', ms: 1 }, { type: 'reset' }, { type: 'reply', status: 200 }] }))
    expect(error.path).toBe('steps[1].type')
    expect(error.problem).toBe('"reset" is a final step and must be the last one (found at position 2 of 3)')
  })

  it('refuses steps that never answer, unknown types, unknown fields and bad values', () => {
    expect(errorOf(() => parseRule({ steps: [{ type: 'delay', ms: 5 }] })).message).toMatch(/^steps\[0\]\.type: the steps must end with a final step/)
    expect(errorOf(() => parseRule({ steps: [{ type: 'explode' }] })).message).toBe(
      'steps[0].type: unknown type "explode"; expected one of: delay, reply, timeout, close, reset, redirect, drip, malformed, handshake',
    )
    expect(errorOf(() => parseRule({ steps: [{ status: 200 }] })).message).toMatch(/^steps\[0\]\.type: missing "type"/)
    expect(errorOf(() => parseRule({ matchers: [{ type: 'weekday' }], steps: [{ type: 'close' }] })).path).toBe('matchers[0].type')
    expect(errorOf(() => parseRule({ steps: [{ type: 'reply', status: 200, colour: 'red' }] })).message).toBe('steps[0]: unknown field "colour"')
    expect(errorOf(() => parseRule({ steps: [{ type: 'reply', status: 99 }] })).path).toBe('steps[0].status')
    expect(errorOf(() => parseRule({ steps: [{ type: 'redirect', status: 303, location: '/x' }] })).path).toBe('steps[0].status')
    expect(errorOf(() => parseRule({ steps: [{ type: 'reply', status: 200, headers: { 'x-a': 'b\r\nSet-Cookie: c' } }] })).path).toBe('steps[0].headers.x-a')
    expect(errorOf(() => parseRule({})).message).toBe('a rule needs exactly one of "steps" or "sequence"')
    expect(errorOf(() => parseRule({ steps: [{ type: 'close' }], sequence: { items: [{ type: 'close' }] } })).message).toMatch(/exactly one/)
    expect(errorOf(() => parseRule({ sequence: { items: [[{ type: 'reply', status: 200 }, { type: 'close' }]] } })).path).toBe('sequence.items[0][0].type')
  })

  it('normalises sequences (a single step per item is allowed) and explains them', () => {
    const rule = parseRule({ sequence: { items: [{ type: 'reply', status: 503 }, [{ type: 'delay', ms: 500 }, { type: 'reply', status: 200 }]] } })
    expect(rule.sequence).toEqual({
      items: [[{ type: 'reply', status: 503 }], [{ type: 'delay', ms: 500 }, { type: 'reply', status: 200 }]],
      then: 'repeat-last',
    })
    expect(explainRule(rule)).toBe('Every request: by arrival of the dedupe key — #1: reply 503; #2: wait 500 ms, then reply 200; later arrivals repeat the last')
  })

  it('expands every preset into an ordinary rule', () => {
    // Faults around the app (forward presets) are explained in test/integration/forward/presets.test.ts.
    const explained = PRESET_IDS.filter((id) => !RULE_PRESETS.entries[id].target).map((preset) => {
      const input = preset === 'fail-first' ? { preset, n: 3 } : preset === 'chaos' ? { preset, seed: 42 } : { preset }
      const rule = expandPreset(input)
      return [rule.name, explainRule(rule)]
    })
    expect(explained).toEqual([
      ['fail the first 3', 'Every request: by arrival of the dedupe key — #1: reply 503; #2: reply 503; #3: reply 503; #4: reply 200; later arrivals repeat the last'],
      ['always 500', 'Every request: reply 500'],
      ['always 410 (gone)', 'Every request: reply 410'],
      ['time out once', 'Every request: by arrival of the dedupe key — #1: hold the request open and never answer; #2: reply 200; later arrivals repeat the last'],
      ['chaos 30 % 503', 'When 30 % of requests (seed 42): reply 503'],
      ['slow', 'Every request: wait 11 s, then reply 200'],
      ['answer the Slack url_verification handshake', 'When method is POST and type is "url_verification": answer the Slack url_verification handshake'],
      ['answer the Zoom endpoint.url_validation handshake', 'When method is POST and event is "endpoint.url_validation": answer the Zoom endpoint.url_validation handshake'],
      ['answer the X (Twitter) CRC handshake', 'When method is GET and query parameter crc_token is present: answer the X (Twitter) CRC handshake'],
      ['answer the Microsoft Graph validationToken handshake', 'When method is POST and query parameter validationToken is present: answer the Microsoft Graph validationToken handshake'],
      ['answer the Dropbox challenge handshake', 'When method is GET and query parameter challenge is present: answer the Dropbox challenge handshake'],
      ['answer the Discord PING handshake', 'When method is POST and type is "1": answer the Discord PING handshake'],
      ['answer the Twitch EventSub challenge handshake', 'When method is POST and header twitch-eventsub-message-type is "webhook_callback_verification": answer the Twitch EventSub challenge handshake'],
    ])
    expect(errorOf(() => parseRuleOrPreset({ preset: 'fail-first' })).path).toBe('n')
    expect(errorOf(() => parseRuleOrPreset({ preset: 'meltdown' }, 'rules[2]')).message).toMatch(/^rules\[2\]\.preset: unknown preset "meltdown"; expected one of: fail-first/)
  })
})
