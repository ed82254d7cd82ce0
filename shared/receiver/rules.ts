// Receiver rules as plain data (mockttp's model): matchers decide whether a rule applies to a
// request, steps say what to answer. Definitions and their explain() live here so a UI can render
// and validate them; the behaviour lives in electron/engine/receiver/.
import { z } from 'zod'
import { DefinitionError, toDefinitionError } from './errors'
import { explainForward, forwardCopyStepSchema, forwardStepSchema, type ForwardStepType } from './forward'
import { HANDSHAKE_KINDS, HANDSHAKES } from './handshakes'

const status = z.number().int().min(100).max(599)
const ms = z.number().int().nonnegative().max(24 * 3600 * 1000)

// ---------------------------------------------------------------- matchers
export const MATCHER_TYPES = ['method', 'path', 'header', 'query', 'event-type', 'nth-arrival', 'every-nth', 'probability'] as const
export type MatcherType = (typeof MATCHER_TYPES)[number]

export const matcherSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('method'), method: z.string().min(1).max(20) }),
  /** The request path; with prefix, any path under it (segment boundary). */
  z.strictObject({ type: z.literal('path'), path: z.string().startsWith('/'), prefix: z.boolean().optional() }),
  /** Header present, or (with value) equal to value (case-insensitive name, exact value). */
  z.strictObject({ type: z.literal('header'), name: z.string().min(1), value: z.string().optional() }),
  /** Query parameter present, or (with value) equal to value (exact name, decoded value). */
  z.strictObject({ type: z.literal('query'), name: z.string().min(1), value: z.string().optional() }),
  /** A field of the JSON body (dotted path, default event_type) equal to one of the values. */
  z.strictObject({
    type: z.literal('event-type'),
    path: z.string().min(1).optional(),
    value: z.union([z.string(), z.array(z.string()).min(1)]),
  }),
  /** The nth arrival of the same dedupe key (1 = first, 2 = dup #2 …). */
  z.strictObject({
    type: z.literal('nth-arrival'),
    n: z.union([z.number().int().positive(), z.array(z.number().int().positive()).min(1)]),
  }),
  /** Every nth request that reaches this matcher (n, 2n, 3n …; offset shifts the first). */
  z.strictObject({ type: z.literal('every-nth'), n: z.number().int().positive(), offset: z.number().int().nonnegative().optional() }),
  /** Matches with probability p, drawn from a PRNG seeded per rule: the same seed, the same run. */
  z.strictObject({ type: z.literal('probability'), p: z.number().min(0).max(1), seed: z.number().int() }),
])
export type Matcher = z.infer<typeof matcherSchema>

// ---------------------------------------------------------------- steps
/** The steps that act on the sender's connection; forward mode adds FORWARD_STEP_TYPES (shared/receiver/forward.ts). */
export const STEP_TYPES = ['delay', 'reply', 'timeout', 'close', 'reset', 'redirect', 'drip', 'malformed', 'handshake'] as const
export type StepType = (typeof STEP_TYPES)[number] | ForwardStepType
/** A final step answers (or refuses to answer) the request: nothing may follow it. */
export const FINAL_STEP_TYPES: readonly StepType[] = ['reply', 'timeout', 'close', 'reset', 'redirect', 'drip', 'malformed', 'handshake', 'forward']
export const MALFORMED_VARIANTS = ['garbage', 'bad-status-line', 'bad-header', 'short-body'] as const

const headerRecord = z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string().regex(/^[^\r\n\0]*$/, 'header values may not contain CR, LF or NUL'))

const connectionStepSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('delay'), ms }),
  z.strictObject({ type: z.literal('reply'), status, headers: headerRecord.optional(), body: z.string().optional() }),
  /** Hold the request open without answering: for ms, then close the connection; forever without ms. */
  z.strictObject({ type: z.literal('timeout'), ms: ms.optional() }),
  /** End the connection cleanly (FIN) without a response. */
  z.strictObject({ type: z.literal('close') }),
  /** Abort the connection with a TCP RST. */
  z.strictObject({ type: z.literal('reset') }),
  z.strictObject({ type: z.literal('redirect'), status: z.union([z.literal(301), z.literal(302)]), location: z.string().min(1).regex(/^[^\r\n\0]*$/, 'no CR, LF or NUL') }),
  /** Send headers, then the body chunk_bytes at a time every interval_ms. */
  z.strictObject({
    type: z.literal('drip'),
    status: status.optional(),
    headers: headerRecord.optional(),
    body: z.string(),
    chunk_bytes: z.number().int().positive().optional(),
    interval_ms: ms,
  }),
  /** Write bytes that are not a valid HTTP response, then close. */
  z.strictObject({ type: z.literal('malformed'), variant: z.enum(MALFORMED_VARIANTS).optional() }),
  /**
   * Answer a provider's verification handshake from the request (shared/receiver/handshakes.ts); where the
   * answer is an HMAC, keyed with secret, else with the endpoint's first secret.
   */
  z.strictObject({ type: z.literal('handshake'), kind: z.enum(HANDSHAKE_KINDS), secret: z.string().min(1).optional() }),
])
/** Forward mode (shared/receiver/forward.ts) beside the connection steps: to your app, answering with its answer; or a copy, going on. */
export const stepSchema = z.union([connectionStepSchema, forwardStepSchema, forwardCopyStepSchema])
export type Step = z.infer<typeof stepSchema>

export function isFinalStep(step: Step): boolean {
  return FINAL_STEP_TYPES.includes(step.type)
}

function checkSteps(steps: readonly Step[], ctx: z.RefinementCtx, path: (string | number)[]): void {
  steps.forEach((step, index) => {
    if (isFinalStep(step) && index !== steps.length - 1) {
      ctx.addIssue({ code: 'custom', path: [...path, index, 'type'], message: `"${step.type}" is a final step and must be the last one (found at position ${index + 1} of ${steps.length})` })
    }
  })
  const last = steps[steps.length - 1]
  if (last && !isFinalStep(last)) {
    ctx.addIssue({ code: 'custom', path: [...path, steps.length - 1, 'type'], message: `the steps must end with a final step (${FINAL_STEP_TYPES.join(', ')}); "${last.type}" is not one` })
  }
}

// ---------------------------------------------------------------- rules
/** A sequence answers by arrival number of the request's dedupe key: item 1 for the first arrival … */
const sequenceItem = z.union([stepSchema, z.array(stepSchema).min(1)])
export const sequenceSchema = z.strictObject({
  items: z.array(sequenceItem).min(1),
  /** Past the last item: repeat it, or let the request fall through to the next rule. */
  then: z.enum(['repeat-last', 'fall-through']).default('repeat-last'),
})

export const ruleSchema = z
  .strictObject({
    id: z.string().min(1).max(200).optional(),
    name: z.string().max(200).optional(),
    enabled: z.boolean().default(true),
    matchers: z.array(matcherSchema).default([]),
    steps: z.array(stepSchema).min(1).optional(),
    sequence: sequenceSchema.optional(),
  })
  .superRefine((rule, ctx) => {
    if ((rule.steps === undefined) === (rule.sequence === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'a rule needs exactly one of "steps" or "sequence"' })
      return
    }
    if (rule.steps) checkSteps(rule.steps, ctx, ['steps'])
    rule.sequence?.items.forEach((item, index) => {
      if (Array.isArray(item)) checkSteps(item, ctx, ['sequence', 'items', index])
      else checkSteps([item], ctx, ['sequence', 'items', index])
    })
  })

export type RuleInput = z.input<typeof ruleSchema>
/** A validated rule: steps lists are normalised (a sequence item is always a list). */
export interface Rule {
  id?: string
  name?: string
  enabled: boolean
  matchers: Matcher[]
  steps?: Step[]
  sequence?: { items: Step[][]; then: 'repeat-last' | 'fall-through' }
}

/** Validates a rule when it is built; throws DefinitionError naming the field. */
export function parseRule(input: unknown, pathPrefix = ''): Rule {
  const result = ruleSchema.safeParse(input)
  if (!result.success) throw toDefinitionError(result.error, input, pathPrefix)
  const r = result.data
  const rule: Rule = { enabled: r.enabled, matchers: r.matchers }
  if (r.id !== undefined) rule.id = r.id
  if (r.name !== undefined) rule.name = r.name
  if (r.steps) rule.steps = r.steps
  if (r.sequence) rule.sequence = { items: r.sequence.items.map((item) => (Array.isArray(item) ? item : [item])), then: r.sequence.then }
  return rule
}

// ---------------------------------------------------------------- explain()
export function explainMatcher(m: Matcher): string {
  switch (m.type) {
    case 'method':
      return `method is ${m.method.toUpperCase()}`
    case 'path':
      return m.prefix ? `path is under ${m.path}` : `path is ${m.path}`
    case 'header':
      return m.value === undefined ? `header ${m.name} is present` : `header ${m.name} is "${m.value}"`
    case 'query':
      return m.value === undefined ? `query parameter ${m.name} is present` : `query parameter ${m.name} is "${m.value}"`
    case 'event-type': {
      const values = Array.isArray(m.value) ? m.value : [m.value]
      return `${m.path ?? 'event_type'} is ${values.map((v) => `"${v}"`).join(' or ')}`
    }
    case 'nth-arrival': {
      const ns = Array.isArray(m.n) ? m.n : [m.n]
      return `it is arrival ${ns.map((n) => `#${n}`).join(' or ')} of its dedupe key`
    }
    case 'every-nth':
      return `every ${m.n === 1 ? '' : `${ordinal(m.n)} `}request${m.offset ? ` (offset ${m.offset})` : ''}`
    case 'probability':
      return `${Math.round(m.p * 1000) / 10} % of requests (seed ${m.seed})`
    default:
      return assertNever(m)
  }
}

export function explainStep(s: Step): string {
  switch (s.type) {
    case 'delay':
      return `wait ${formatMs(s.ms)}`
    case 'reply':
      return `reply ${s.status}`
    case 'timeout':
      return s.ms === undefined ? 'hold the request open and never answer' : `hold the request open ${formatMs(s.ms)}, then close without answering`
    case 'close':
      return 'close the connection without a response'
    case 'reset':
      return 'reset the connection (TCP RST)'
    case 'redirect':
      return `redirect ${s.status} to ${s.location}`
    case 'drip':
      return `reply ${s.status ?? 200}, sending the body ${s.chunk_bytes ?? 1} byte${(s.chunk_bytes ?? 1) === 1 ? '' : 's'} every ${formatMs(s.interval_ms)}`
    case 'malformed':
      return `send an invalid HTTP response (${s.variant ?? 'garbage'})`
    case 'handshake':
      return `answer the ${HANDSHAKES.entries[s.kind].label} handshake`
    case 'forward':
    case 'forward-copy':
      return explainForward(s)
    default:
      return assertNever(s)
  }
}

export function explainSteps(steps: readonly Step[]): string {
  return steps.map(explainStep).join(', then ')
}

export function explainRule(rule: Rule): string {
  const when = rule.matchers.length === 0 ? 'Every request' : `When ${rule.matchers.map(explainMatcher).join(' and ')}`
  let what: string
  if (rule.sequence) {
    const items = rule.sequence.items.map((steps, i) => `#${i + 1}: ${explainSteps(steps)}`)
    const after = rule.sequence.then === 'repeat-last' ? 'later arrivals repeat the last' : 'later arrivals fall through to the next rule'
    what = `by arrival of the dedupe key — ${items.join('; ')}; ${after}`
  } else {
    what = explainSteps(rule.steps ?? [])
  }
  return `${when}: ${what}${rule.enabled ? '' : ' (disabled)'}`
}

function ordinal(n: number): string {
  const mod100 = n % 100
  const suffix = mod100 >= 11 && mod100 <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'
  return `${n}${suffix}`
}

function formatMs(value: number): string {
  if (value >= 1000 && value % 1000 === 0) return `${value / 1000} s`
  return `${value} ms`
}

export function assertNever(value: never): never {
  throw new DefinitionError('', `unexpected value ${JSON.stringify(value)}`)
}

/** A request's stored fault ({outcome, step, steps}) or a bare step, as a sentence. */
export function explainFault(fault: unknown): string {
  if (!fault || typeof fault !== 'object') return String(fault)
  const step = fault as { type?: string }
  // A request's stored fault is {outcome, step, steps}: the final step the rule applied, and what
  // came of it ("answer the Slack url_verification handshake: replied").
  const recorded = fault as { outcome?: unknown; step?: unknown }
  if (step.type === undefined && 'step' in recorded && typeof recorded.outcome === 'string') {
    const outcome = recorded.outcome.replace(/_/g, ' ')
    return recorded.step ? `${explainFault(recorded.step)}: ${outcome}` : outcome
  }
  try {
    // The final step the rule applied; explainStep reads it as a sentence.
    return explainStep(fault as Step)
  } catch {
    return JSON.stringify(step)
  }
}
