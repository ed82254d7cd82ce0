// Loads a scenario from its text: JSON syntax (with line and column), the schema (with the JSON
// path of each problem), then what a schema cannot see: duplicate names and references between
// sections (an expectation naming an event that does not exist, a subscription naming an
// endpoint that does not exist …). Every problem is reported, not just the first.
import { eventLocalId, scenarioSchema, type Scenario } from './schema'
import { formatPath, problemsFromZod, type ScenarioProblem } from './issues'
import { applyExplicitPolicyDefaults } from './policy-defaults'
import { statusOfWord } from './status-words'
import { catalogProblems } from './catalog-events'

/**
 * A valid scenario comes with `defaults`: what the validator filled into explicit policies
 * (`subscriptions[0].policy: defaults applied: …`), to be shown, never silent.
 */
export type ScenarioParseResult = { ok: true; scenario: Scenario; defaults: ScenarioProblem[] } | { ok: false; problems: ScenarioProblem[] }

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position)
  const line = before.split('\n').length
  const column = position - before.lastIndexOf('\n')
  return `line ${line}, column ${column}`
}

/** JSON.parse's message with the position turned into a line and column a person can find. */
export function jsonSyntaxProblem(text: string, error: unknown): ScenarioProblem {
  const message = error instanceof Error ? error.message : String(error)
  const match = /at position (\d+)/.exec(message)
  if (match?.[1]) {
    const where = lineAndColumn(text, Number(match[1]))
    return { path: '(root)', message: `not valid JSON: ${message.replace(/\s*in JSON at position \d+.*$/, '')} (${where})` }
  }
  if (/Unexpected end of JSON input/.test(message)) {
    return { path: '(root)', message: `not valid JSON: the text ends early (${lineAndColumn(text, text.length)})` }
  }
  return { path: '(root)', message: `not valid JSON: ${message}` }
}

function duplicateNames(names: readonly (string | undefined)[], pathOf: (index: number) => string, what: string): ScenarioProblem[] {
  const seen = new Map<string, number>()
  const problems: ScenarioProblem[] = []
  names.forEach((name, index) => {
    if (name === undefined) return
    const first = seen.get(name)
    if (first === undefined) seen.set(name, index)
    else problems.push({ path: pathOf(index), message: `duplicate ${what} ${JSON.stringify(name)} (already used at index ${first})` })
  })
  return problems
}

function unknownRef(kind: string, name: string, known: readonly string[]): string {
  return `unknown ${kind} ${JSON.stringify(name)} (${known.length ? `${kind}s: ${known.join(', ')}` : `no ${kind}s are defined`})`
}

/** Checks that need the whole document; the scenario has passed the schema. */
export function crossCheck(scenario: Scenario): ScenarioProblem[] {
  const problems: ScenarioProblem[] = []
  const slugs = scenario.endpoints.map((e) => e.slug)
  const subscriptionIds = scenario.subscriptions.map((s) => s.id)
  const eventIds = scenario.events.map((e, i) => eventLocalId(e, i))

  problems.push(...duplicateNames(slugs, (i) => formatPath(['endpoints', i, 'slug']), 'endpoint slug'))
  problems.push(...duplicateNames(subscriptionIds, (i) => formatPath(['subscriptions', i, 'id']), 'subscription id'))
  problems.push(...duplicateNames(eventIds, (i) => formatPath(['events', i, 'id']), 'event id'))
  problems.push(
    ...duplicateNames(
      scenario.events.map((e) => e.event_id),
      (i) => formatPath(['events', i, 'event_id']),
      'event_id',
    ),
  )

  scenario.subscriptions.forEach((sub, i) => {
    if (sub.endpoint !== undefined && !slugs.includes(sub.endpoint)) {
      problems.push({ path: formatPath(['subscriptions', i, 'endpoint']), message: unknownRef('endpoint', sub.endpoint, slugs) })
    }
  })

  const targets = new Map<string, string[]>()
  scenario.events.forEach((event, i) => {
    const subs = event.subscriptions ?? subscriptionIds
    event.subscriptions?.forEach((name, j) => {
      if (!subscriptionIds.includes(name)) problems.push({ path: formatPath(['events', i, 'subscriptions', j]), message: unknownRef('subscription', name, subscriptionIds) })
    })
    targets.set(eventLocalId(event, i), subs)
  })
  // Only when every subscription an event names exists: an unknown one is reported above.
  if (scenario.events.every((e) => (e.subscriptions ?? []).every((name) => subscriptionIds.includes(name)))) problems.push(...catalogProblems(scenario))

  scenario.actions.forEach((action, i) => {
    if (action.type !== 'retry-now' && action.type !== 'resend') {
      if (!subscriptionIds.includes(action.subscription)) problems.push({ path: formatPath(['actions', i, 'subscription']), message: unknownRef('subscription', action.subscription, subscriptionIds) })
      return
    }
    const subs = targets.get(action.event)
    if (!subs) {
      problems.push({ path: formatPath(['actions', i, 'event']), message: unknownRef('event', action.event, eventIds) })
      return
    }
    if (action.subscription !== undefined && !subs.includes(action.subscription)) {
      problems.push({ path: formatPath(['actions', i, 'subscription']), message: `event ${JSON.stringify(action.event)} is not delivered to subscription ${JSON.stringify(action.subscription)} (it goes to: ${subs.join(', ')})` })
    } else if (action.subscription === undefined && subs.length > 1) {
      problems.push({ path: formatPath(['actions', i]), message: `event ${JSON.stringify(action.event)} goes to ${subs.length} subscriptions (${subs.join(', ')}): name one in "subscription"` })
    }
    // The delivery must exist before it can be retried: the event is sent at its own at_ms.
    const sentAt = scenario.events[eventIds.indexOf(action.event)]?.at_ms ?? 0
    if (action.at_ms <= sentAt) {
      problems.push({ path: formatPath(['actions', i, 'at_ms']), message: `${action.type} at ${action.at_ms} ms comes before the event is sent (at ${sentAt} ms): use a later time` })
    }
  })

  const expected = new Set<string>()
  scenario.expect.deliveries.forEach((exp, i) => {
    const subs = targets.get(exp.event)
    if (!subs) {
      problems.push({ path: formatPath(['expect', 'deliveries', i, 'event']), message: unknownRef('event', exp.event, eventIds) })
      return
    }
    if (exp.subscription !== undefined && !subs.includes(exp.subscription)) {
      problems.push({
        path: formatPath(['expect', 'deliveries', i, 'subscription']),
        message: `event ${JSON.stringify(exp.event)} is not delivered to subscription ${JSON.stringify(exp.subscription)} (it goes to: ${subs.join(', ')})`,
      })
      return
    }
    if (exp.subscription === undefined && subs.length > 1) {
      problems.push({
        path: formatPath(['expect', 'deliveries', i]),
        message: `event ${JSON.stringify(exp.event)} goes to ${subs.length} subscriptions (${subs.join(', ')}): name one in "subscription"`,
      })
      return
    }
    const subscription = exp.subscription ?? subs[0] ?? ''
    const key = `${exp.event}\u0000${subscription}\u0000${exp.copy}\u0000${exp.resend ?? 0}`
    if (expected.has(key)) problems.push({ path: formatPath(['expect', 'deliveries', i]), message: `a second expectation for the same delivery (${exp.event} → ${exp.subscription ?? subs[0]}${exp.copy ? ', copy' : ''}); merge them` })
    expected.add(key)
    if (exp.copy) {
      const event = scenario.events[eventIds.indexOf(exp.event)]
      if (!event?.faults.some((f) => f.type === 'duplicate')) {
        problems.push({ path: formatPath(['expect', 'deliveries', i, 'copy']), message: `event ${JSON.stringify(exp.event)} has no "duplicate" fault, so it has no copy to judge` })
      }
    }

    if (exp.resend !== undefined) {
      const resends = scenario.actions.filter((a) => a.type === 'resend' && a.event === exp.event && (a.subscription ?? subs[0]) === subscription).length
      if (exp.resend > resends) problems.push({ path: formatPath(['expect', 'deliveries', i, 'resend']), message: `judges resend #${exp.resend} but the actions resend ${exp.event} → ${subscription} ${resends} time${resends === 1 ? '' : 's'}` })
      if (exp.copy) problems.push({ path: formatPath(['expect', 'deliveries', i, 'copy']), message: 'a resend has no duplicate copy: give "copy" or "resend", not both' })
    }
    if (exp.status !== undefined) {
      const policy = scenario.subscriptions.find((s) => s.id === subscription)?.policy
      const preset = typeof policy === 'string' ? policy : policy?.preset
      if (statusOfWord(preset, exp.status) === undefined) {
        problems.push({ path: formatPath(['expect', 'deliveries', i, 'status']), message: `"${exp.status}" is not a status of subscription ${subscription}'s policy (${preset ?? 'explicit'}): use pending, retrying, succeeded or failed${preset ? '' : ''}` })
      }
    }

    // Lists that contradict the attempt count can never pass: say so now, not after a run.
    const count = exp.attempts
    for (const field of ['at_ms', 'outcomes', 'duplicates', 'run_ms', 'durations_ms', 'decisions', 'next_at_ms'] as const) {
      const list = exp[field]
      if (count !== undefined && list !== undefined && list.length !== count) {
        problems.push({ path: formatPath(['expect', 'deliveries', i, field]), message: `lists ${list.length} attempts but "attempts" is ${count}` })
      }
    }
    if (Array.isArray(exp.signatures) && count !== undefined && exp.signatures.length !== count) {
      problems.push({ path: formatPath(['expect', 'deliveries', i, 'signatures']), message: `lists ${exp.signatures.length} attempts but "attempts" is ${count}` })
    }
    if (exp.at_ms !== undefined) {
      if (exp.at_ms.length > 0 && exp.at_ms[0] !== 0) {
        problems.push({ path: formatPath(['expect', 'deliveries', i, 'at_ms', 0]), message: 'the first attempt is at 0 (times count from the delivery\'s first attempt)' })
      }
      exp.at_ms.forEach((t, j) => {
        const previous = exp.at_ms?.[j - 1]
        if (previous !== undefined && t < previous) problems.push({ path: formatPath(['expect', 'deliveries', i, 'at_ms', j]), message: `times must not decrease (${t} comes after ${previous})` })
      })
    }
  })

  scenario.expect.endpoints.forEach((exp, i) => {
    if (!slugs.includes(exp.endpoint)) problems.push({ path: formatPath(['expect', 'endpoints', i, 'endpoint']), message: unknownRef('endpoint', exp.endpoint, slugs) })
  })
  scenario.expect.forwards.forEach((exp, i) => {
    const at = (...rest: (string | number)[]) => formatPath(['expect', 'forwards', i, ...rest])
    if (exp.target === undefined && scenario.app === undefined) problems.push({ path: at(), message: 'name the forward "target", or set the scenario\'s "app" (the target judged by default)' })
    if (exp.endpoint !== undefined && !slugs.includes(exp.endpoint)) problems.push({ path: at('endpoint'), message: unknownRef('endpoint', exp.endpoint, slugs) })
    if (exp.event !== undefined && !eventIds.includes(exp.event)) problems.push({ path: at('event'), message: unknownRef('event', exp.event, eventIds) })
    for (const field of ['statuses', 'outcomes'] as const) {
      const list = exp[field]
      if (list !== undefined && exp.requests !== undefined && list.length !== exp.requests) problems.push({ path: at(field), message: `lists ${list.length} requests but "requests" is ${exp.requests}` })
    }
    if (exp.latency_ms?.min !== undefined && exp.latency_ms.max !== undefined && exp.latency_ms.min > exp.latency_ms.max) problems.push({ path: at('latency_ms'), message: `min ${exp.latency_ms.min} is above max ${exp.latency_ms.max}` })
  })
  // A tunnel only carries loop-mode deliveries: without one it would open for nothing.
  if (scenario.tunnel !== undefined && !scenario.subscriptions.some((s) => s.endpoint !== undefined)) {
    problems.push({ path: 'tunnel', message: 'no subscription targets one of this scenario\'s endpoints ("endpoint"), so nothing would go through the tunnel' })
  }
  return problems
}

/** Validates an already-parsed JSON document. */
export function validateScenario(document: unknown): ScenarioParseResult {
  const parsed = scenarioSchema.safeParse(document)
  if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error, document, scenarioSchema) }
  const problems = crossCheck(parsed.data)
  if (problems.length) return { ok: false, problems }
  const { scenario, defaults } = applyExplicitPolicyDefaults(parsed.data)
  return { ok: true, scenario, defaults }
}

/** Parses and validates the text of a scenario file. */
export function parseScenario(text: string): ScenarioParseResult {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [jsonSyntaxProblem(text, error)] }
  }
  return validateScenario(document)
}
