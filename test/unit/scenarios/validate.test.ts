import { describe, expect, it } from 'vitest'
import { parseScenario, validateScenario } from '../../../shared/scenario'
import { formatProblem } from '../../../shared/scenario'

function valid(): Record<string, unknown> {
  return {
    version: 1,
    name: 'provider A: fail the first 3, then 200',
    clock: { mode: 'virtual' },
    endpoints: [
      {
        slug: 'clinic',
        scheme: 'standard-webhooks',
        secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        dedupe: { type: 'header', name: 'x-pandoktorek-event-id' },
        rules: [{ matchers: [{ type: 'nth-arrival', n: [1, 2, 3] }], steps: [{ type: 'reply', status: 503 }] }, { preset: 'fail-first', n: 3 }],
      },
    ],
    subscriptions: [{ id: 'clinic-sub', endpoint: 'clinic', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'pandoktorek' }],
    events: [{ id: 'booking', type: 'booking.created', payload: { booking_id: 1 }, faults: [{ type: 'duplicate' }] }],
    expect: { deliveries: [{ event: 'booking', status: 'succeeded', attempts: 4, at_ms: [0, 120000, 360000, 840000] }] },
  }
}

function problems(doc: unknown): string[] {
  const result = validateScenario(doc)
  return result.ok ? [] : result.problems.map(formatProblem)
}

// Tests reach deep into a plain JSON document to break one thing at a time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>

function mutate(change: (doc: Doc) => void): Record<string, unknown> {
  const doc = valid()
  change(doc as Doc)
  return doc
}

describe('scenario validation', () => {
  it('accepts a well-formed scenario and fills in defaults', () => {
    const result = validateScenario(valid())
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.scenario.events[0]?.at_ms).toBe(0)
    expect(result.scenario.subscriptions[0]?.scheme).toBe('standard-webhooks')
    expect(result.scenario.expect.endpoints).toEqual([])
    expect(result.scenario.expect.deliveries[0]?.tolerance_ms).toBe(0)
  })

  it('says where JSON syntax breaks, with line and column', () => {
    const result = parseScenario('{\n  "version": 1,\n  "name": "x",\n}')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(formatProblem(result.problems[0]!)).toMatch(/^\(root\): not valid JSON: .*line 4, column 1/)
    const early = parseScenario('{"version": 1')
    expect(early.ok || formatProblem(early.problems[0]!)).toMatch(/not valid JSON: the text ends early|not valid JSON/)
  })

  it('names an unknown fault with its path and the known faults', () => {
    const list = problems(mutate((d) => (d.events[0].faults = [{ type: 'duplicate' }, { type: 'dupe' }])))
    expect(list).toHaveLength(1)
    expect(list[0]).toMatch(/^events\[0\]\.faults\[1\]\.type: unknown fault "dupe" \(expected one of .*duplicate.*drop/)
  })

  it('names an unknown rule step and an unknown policy preset', () => {
    const step = problems(mutate((d) => (d.endpoints[0].rules[0].steps = [{ type: 'explode' }])))
    expect(step[0]).toMatch(/^endpoints\[0\]\.rules\[0\]\.steps\[0\]\.type: unknown step "explode" \(expected one of .*reply/)
    const policy = problems(mutate((d) => (d.subscriptions[0].policy = 'pandoktor')))
    expect(policy).toEqual([expect.stringMatching(/^subscriptions\[0\]\.policy: unknown policy "pandoktor" \(expected one of .*pandoktorek.*csku/)])
  })

  it('takes a subscription envelope ("event" by default) and names a bad one with its path', () => {
    const defaulted = validateScenario(valid())
    expect(defaulted.ok && defaulted.scenario.subscriptions[0]?.envelope).toBe('event')
    const bare = validateScenario(mutate((d) => (d.subscriptions[0].envelope = 'payload')))
    expect(bare.ok && bare.scenario.subscriptions[0]?.envelope).toBe('payload')
    const bad = problems(mutate((d) => (d.subscriptions[0].envelope = 'body')))
    expect(bad).toHaveLength(1)
    expect(bad[0]).toMatch(/^subscriptions\[0\]\.envelope: .*"body".*event.*payload/)
  })

  it('names an unknown rule preset, and a wrong field inside a policy object', () => {
    const preset = problems(mutate((d) => (d.endpoints[0].rules[1] = { preset: 'fail-frist', n: 3 })))
    expect(preset).toEqual([expect.stringMatching(/^endpoints\[0\]\.rules\[1\]\.preset: unknown rule preset "fail-frist" \(expected one of fail-first, /)])
    const kind = problems(mutate((d) => (d.subscriptions[0].policy = { preset: 'pandoktorek', schedule: { kind: 'fibonacci' } })))
    expect(kind).toEqual([expect.stringMatching(/^subscriptions\[0\]\.policy\.schedule\.kind: unknown schedule kind "fibonacci" \(expected one of exponential, fixed, list\)/)])
    const attempts = problems(mutate((d) => (d.subscriptions[0].policy = { preset: 'csku', max_attempts: 'four' })))
    expect(attempts).toEqual(['subscriptions[0].policy.max_attempts: expected number, got string "four"'])
  })

  it('refuses a final step that is not last', () => {
    const list = problems(mutate((d) => (d.endpoints[0].rules[0].steps = [{ type: 'reply', status: 503 }, { type: 'delay', ms: 10 }])))
    expect(list[0]).toBe('endpoints[0].rules[0].steps[0].type: "reply" is a final step and must be the last one (found at position 1 of 2)')
  })

  it('reports a wrong type at its path with what was given', () => {
    const list = problems(mutate((d) => (d.events[0].at_ms = 'soon')))
    expect(list).toEqual(['events[0].at_ms: expected number, got string "soon"'])
  })

  it('reports a missing required field', () => {
    const list = problems(mutate((d) => delete d.events[0].type))
    expect(list).toEqual(['events[0].type: required field missing (expected string)'])
    expect(problems(mutate((d) => delete d.name))).toEqual(['name: required field missing (expected string)'])
  })

  it('reports an unknown field, so a typo in an expectation cannot pass silently', () => {
    const list = problems(mutate((d) => (d.expect.deliveries[0].attemps = 4)))
    expect(list).toEqual(['expect.deliveries[0].attemps: unknown field "attemps" (did you mean "attempts"?)'])
  })

  it('suggests the field meant, through unions picked by their tag, or lists the known ones', () => {
    expect(problems(mutate((d) => (d.events[0].faults = [{ type: 'duplicate', delay: 5 }])))).toEqual(['events[0].faults[0].delay: unknown field "delay" (did you mean "delay_ms"?)'])
    expect(problems(mutate((d) => (d.clock = { mode: 'scaled', factr: 10 })))).toEqual([
      'clock.factor: required field missing (expected number)',
      'clock.factr: unknown field "factr" (did you mean "factor"?)',
    ])
    expect(problems(mutate((d) => (d.subscriptions[0].policy = { preset: 'csku', max_attempt: 3 })))).toEqual(['subscriptions[0].policy.max_attempt: unknown field "max_attempt" (did you mean "max_attempts"?)'])
    expect(problems(mutate((d) => (d.zzz = 1)))).toEqual([expect.stringMatching(/^zzz: unknown field "zzz" \(known fields: \$schema, version, name, description, clock, /)])
  })

  it('reports an unsupported version and an unknown clock mode', () => {
    expect(problems(mutate((d) => (d.version = 2)))).toEqual(['version: unsupported scenario version 2 (this Hookloop reads version 1)'])
    expect(problems(mutate((d) => (d.clock = { mode: 'warp' })))[0]).toMatch(/^clock\.mode: unknown clock mode "warp" \(expected one of real, scaled, virtual\)/)
  })

  it('finds duplicate ids', () => {
    const list = problems(
      mutate((d) => {
        d.events.push({ id: 'booking', type: 'booking.cancelled', payload: {} })
        d.subscriptions.push({ ...d.subscriptions[0] })
      }),
    )
    expect(list).toContain('subscriptions[1].id: duplicate subscription id "clinic-sub" (already used at index 0)')
    expect(list).toContain('events[1].id: duplicate event id "booking" (already used at index 0)')
  })

  it('finds a duplicate fixed event_id', () => {
    const id = '550e8400-e29b-41d4-a716-446655440000'
    const list = problems(
      mutate((d) => {
        d.events[0].event_id = id
        d.events.push({ type: 'booking.cancelled', payload: {}, event_id: id })
      }),
    )
    expect(list).toEqual([`events[1].event_id: duplicate event_id "${id}" (already used at index 0)`])
  })

  it('finds references to unknown events, subscriptions and endpoints', () => {
    const list = problems(
      mutate((d) => {
        d.expect.deliveries.push({ event: 'e9', status: 'failed' })
        d.events[0].subscriptions = ['nope']
        d.subscriptions[0].endpoint = 'clinik'
        d.expect.endpoints = [{ endpoint: 'elsewhere', requests: 1 }]
      }),
    )
    expect(list).toContain('expect.deliveries[1].event: unknown event "e9" (events: booking)')
    expect(list).toContain('events[0].subscriptions[0]: unknown subscription "nope" (subscriptions: clinic-sub)')
    expect(list).toContain('subscriptions[0].endpoint: unknown endpoint "clinik" (endpoints: clinic)')
    expect(list).toContain('expect.endpoints[0].endpoint: unknown endpoint "elsewhere" (endpoints: clinic)')
  })

  it('checks panel actions: their kind, what they name, and that a retry comes after its event', () => {
    expect(problems(mutate((d) => (d.actions = [{ type: 'replay', at_ms: 5 }])))).toEqual([expect.stringMatching(/^actions\[0\]\.type: unknown action "replay" \(expected one of retry-now, pause, resume, rotate-secret, resend\)/)])
    const list = problems(
      mutate((d) => {
        d.events[0].at_ms = 1000
        d.actions = [
          { type: 'retry-now', event: 'bookin', at_ms: 5000 },
          { type: 'retry-now', event: 'booking', at_ms: 1000 },
          { type: 'pause', subscription: 'nope', at_ms: 0 },
          { type: 'rotate-secret', subscription: 'clinic-sub', at_ms: 0 },
        ]
      }),
    )
    expect(list).toEqual([
      'actions[0].event: unknown event "bookin" (events: booking)',
      'actions[1].at_ms: retry-now at 1000 ms comes before the event is sent (at 1000 ms): use a later time',
      'actions[2].subscription: unknown subscription "nope" (subscriptions: clinic-sub)',
    ])
  })

  it('lets an expectation judge a duplicate fault\'s copy, only where there is one', () => {
    expect(problems(mutate((d) => d.expect.deliveries.push({ event: 'booking', copy: true, duplicates: [2] })))).toEqual([])
    expect(problems(mutate((d) => d.expect.deliveries.push({ event: 'booking', duplicates: [2] })))).toEqual(['expect.deliveries[1]: a second expectation for the same delivery (booking → clinic-sub); merge them'])
    expect(
      problems(
        mutate((d) => {
          d.events[0].faults = []
          d.expect.deliveries.push({ event: 'booking', copy: true })
        }),
      ),
    ).toEqual(['expect.deliveries[1].copy: event "booking" has no "duplicate" fault, so it has no copy to judge'])
  })

  it('names default event ids e1, e2 … by position', () => {
    const list = problems(
      mutate((d) => {
        delete d.events[0].id
        d.expect.deliveries = [{ event: 'e2' }]
      }),
    )
    expect(list).toEqual(['expect.deliveries[0].event: unknown event "e2" (events: e1)'])
  })

  it('requires exactly one of endpoint and url on a subscription', () => {
    expect(problems(mutate((d) => (d.subscriptions[0].url = 'http://127.0.0.1:9/hook')))[0]).toMatch(/^subscriptions\[0\]: give exactly one of "endpoint"/)
    expect(problems(mutate((d) => delete d.subscriptions[0].endpoint))[0]).toMatch(/^subscriptions\[0\]: give exactly one/)
    expect(problems(mutate((d) => {
      delete d.subscriptions[0].endpoint
      d.subscriptions[0].url = 'ftp://x'
    }))[0]).toMatch(/^subscriptions\[0\]\.url: expected an http\(s\) URL, got string "ftp:\/\/x"/)
  })

  it('refuses expectations that contradict themselves', () => {
    const list = problems(mutate((d) => (d.expect.deliveries[0].at_ms = [0, 120000, 360000])))
    expect(list).toEqual(['expect.deliveries[0].at_ms: lists 3 attempts but "attempts" is 4'])
    expect(problems(mutate((d) => (d.expect.deliveries[0].at_ms = [5, 120000, 100000, 840000])))).toEqual([
      "expect.deliveries[0].at_ms[0]: the first attempt is at 0 (times count from the delivery's first attempt)",
      'expect.deliveries[0].at_ms[2]: times must not decrease (100000 comes after 120000)',
    ])
  })

  it('asks which subscription when an event goes to several', () => {
    const list = problems(mutate((d) => d.subscriptions.push({ id: 'second', url: 'http://127.0.0.1:9/x', policy: 'csku' })))
    expect(list).toEqual(['expect.deliveries[0]: event "booking" goes to 2 subscriptions (clinic-sub, second): name one in "subscription"'])
  })

  it('reports a policy of the wrong kind', () => {
    expect(problems(mutate((d) => (d.subscriptions[0].policy = 5)))[0]).toMatch(/^subscriptions\[0\]\.policy: expected .* or an object, got number 5/)
  })

  it('reports several problems at once', () => {
    const list = problems(
      mutate((d) => {
        d.events[0].at_ms = -1
        d.events[0].faults = [{ type: 'nope' }]
        delete d.subscriptions[0].policy
      }),
    )
    expect(list.length).toBeGreaterThanOrEqual(3)
    expect(list.join('\n')).toMatch(/events\[0\]\.at_ms: must be ≥ 0, got number -1/)
  })

  it('refuses a document that is not an object', () => {
    expect(problems([1, 2])).toEqual(['(root): expected object, got an array'])
  })
})
