// Receiver definitions shared by the engine, the CLI and the UI: endpoints, dedupe keys and the
// `hookloop listen` config file. Plain data, validated when built.
import { z } from 'zod'
import { SCHEME_IDS, type CustomHmacOptions, type SchemeId } from '../signatures'
import { DefinitionError, toDefinitionError } from './errors'
import { parseRuleOrPreset } from './rule-presets'
import { defineCatalog, mapEntries, type PresetInfo } from '../catalog'
import type { Rule } from './rules'
import { forwardTargets, forwardToSchema } from './forward'

/** Every endpoint answers at `/h/<slug>` (and any path under it). */
export const ENDPOINT_PATH_PREFIX = '/h/'
export const DEFAULT_DEDUPE_WINDOW_MS = 24 * 3600 * 1000
/**
 * The largest body an endpoint takes unless it says otherwise: 32 MiB. GitHub and GitLab deliver
 * payloads of up to 25 MB (the largest any provider pack documents, e.g. a big `push`); 32 MiB
 * holds that whether "MB" means 10^6 or 2^20, with room to spare for a provider's envelope
 * around such a payload. Every path uses it: direct, through the tunnel, and forward mode.
 */
export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024
/** Header our sender sets on every attempt: its link, `<attempt id>.<mac>` (electron/engine/sender/attempt-link.ts). */
export const ATTEMPT_HEADER = 'x-hookloop-attempt'

export function endpointPath(slug: string): string {
  return `${ENDPOINT_PATH_PREFIX}${slug}`
}

// ---------------------------------------------------------------- JSON paths
export type JsonPath = (string | number)[]

/** `message.id`, `data[0].id`, `event_id` → path parts. Throws DefinitionError when malformed. */
export function parseJsonPath(text: string): JsonPath {
  const parts: JsonPath = []
  const re = /([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"\\]*)"\]/y
  let pos = 0
  while (pos < text.length) {
    if (pos > 0 && text[pos] === '.') pos++
    re.lastIndex = pos
    const m = re.exec(text)
    if (!m) throw new DefinitionError('', `"${text}" is not a JSON path (use field.sub[0].name)`)
    if (m[1] !== undefined) parts.push(m[1])
    else if (m[2] !== undefined) parts.push(Number(m[2]))
    else parts.push(m[3] ?? '')
    pos = re.lastIndex
  }
  if (parts.length === 0) throw new DefinitionError('', 'an empty JSON path')
  return parts
}

export function readJsonPath(value: unknown, path: JsonPath): unknown {
  let cur = value
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    if (typeof part === 'number') {
      if (!Array.isArray(cur)) return undefined
      cur = cur[part]
    } else {
      if (Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined
      cur = (cur as Record<string, unknown>)[part]
    }
  }
  return cur
}

/** `${event}_${message.id}` → literal pieces and paths, alternating. */
export function parseTemplate(template: string): (string | JsonPath)[] {
  const pieces: (string | JsonPath)[] = []
  const re = /\$\{([^}]*)\}/g
  let last = 0
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > last) pieces.push(template.slice(last, m.index))
    pieces.push(parseJsonPath((m[1] ?? '').trim()))
    last = re.lastIndex
  }
  if (last < template.length) pieces.push(template.slice(last))
  if (!pieces.some((p) => Array.isArray(p))) throw new DefinitionError('', `the template "${template}" has no \${field} placeholder`)
  return pieces
}

// ---------------------------------------------------------------- dedupe keys
const jsonPathString = z.string().min(1).superRefine((text, ctx) => {
  try {
    parseJsonPath(text)
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
  }
})

export const dedupeKeySchema = z.discriminatedUnion('type', [
  // The event id found on its own: a provider's id header (webhook-id, X-GitHub-Delivery …), else
  // the body's event_id or id (shared/providers/event-id.ts). What a new endpoint starts with.
  z.strictObject({ type: z.literal('auto') }),
  z.strictObject({ type: z.literal('header'), name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name') }),
  z.strictObject({ type: z.literal('json-path'), path: jsonPathString }),
  z.strictObject({
    type: z.literal('template'),
    template: z.string().superRefine((text, ctx) => {
      try {
        parseTemplate(text)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  }),
])
export type DedupeKey = z.infer<typeof dedupeKeySchema>

/** Where well-known senders put their event id: one entry per sender, the key and why. */
export const DEDUPE_CATALOG = defineCatalog({
  auto: { label: 'Auto: find the event id', description: "A provider's event id header (webhook-id, X-GitHub-Delivery, X-Shopify-Webhook-Id …), else the body's event_id or id", key: { type: 'auto' } },
  pandoktorek: { label: 'Provider A event id header', description: "Provider A: the event id header (the same UUID is in the body's event_id)", key: { type: 'header', name: 'X-Pandoktorek-Event-Id' } },
  'pandoktorek-body': { label: 'Provider A body event_id', description: "Provider A: the body's event_id", key: { type: 'json-path', path: 'event_id' } },
  csku: { label: 'Provider B ${event}_${message.id}', description: 'Provider B: a composite built from body fields', key: { type: 'template', template: '${event}_${message.id}' } },
  'standard-webhooks': { label: 'Standard Webhooks webhook-id', description: 'The Standard Webhooks message id header', key: { type: 'header', name: 'webhook-id' } },
  svix: { label: 'Svix svix-id', description: "Svix's message id header", key: { type: 'header', name: 'svix-id' } },
  github: { label: 'GitHub X-GitHub-Delivery', description: "GitHub's delivery id header (the same on a redelivery)", key: { type: 'header', name: 'X-GitHub-Delivery' } },
  shopify: { label: 'Shopify X-Shopify-Webhook-Id', description: "Shopify's webhook id header", key: { type: 'header', name: 'X-Shopify-Webhook-Id' } },
  stripe: { label: 'Stripe body id', description: "The Stripe event's id in the body", key: { type: 'json-path', path: 'id' } },
} satisfies Record<string, PresetInfo & { key: DedupeKey }>)
export const DEDUPE_PRESETS: Record<DedupePresetId, DedupeKey> = mapEntries(DEDUPE_CATALOG.entries, (e) => e.key)
export type DedupePresetId = (typeof DEDUPE_CATALOG.ids)[number]

/** The one text field of a key (header name, JSON path or template), as a form edits it. */
export function dedupeKeyText(key: DedupeKey | null): string {
  return key === null || key.type === 'auto' ? '' : key.type === 'header' ? key.name : key.type === 'json-path' ? key.path : key.template
}

/** A key of the type with its one text field (auto has none); none for 'none'. */
export function dedupeKeyOf(type: DedupeKey['type'] | 'none', text: string): DedupeKey | null {
  return type === 'none' ? null : type === 'auto' ? { type } : type === 'header' ? { type, name: text } : type === 'json-path' ? { type, path: text } : { type, template: text }
}

/** Where a found key was read, as the screen and listen's log name it: "auto: body.event_id", "header webhook-id". */
export function dedupeKeySource(key: DedupeKey | null, where: string | null): string | null {
  if (!key) return null
  return key.type === 'auto' ? (where === null ? null : `auto: ${where}`) : explainDedupeKey(key)
}

/** A new endpoint finds the event id on its own until the person picks another key or none. */
export const NEW_ENDPOINT_DEDUPE: DedupeKey = { type: 'auto' }

export function explainDedupeKey(key: DedupeKey | null): string {
  if (!key) return 'no dedupe key'
  switch (key.type) {
    case 'auto':
      return "auto: a provider's event id header, else the body's event_id or id"
    case 'header':
      return `header ${key.name}`
    case 'json-path':
      return `body field ${key.path}`
    case 'template':
      return `body template ${key.template}`
    default: {
      const never: never = key
      return never
    }
  }
}

// ---------------------------------------------------------------- endpoints
export const customHmacSchema = z.strictObject({
  header: z.string().min(1),
  prefix: z.string().optional(),
  algorithm: z.enum(['sha1', 'sha256', 'sha512']),
  encoding: z.enum(['hex', 'base64']),
  signedTemplate: z.string().optional(),
  timestampHeader: z.string().optional(),
  idHeader: z.string().optional(),
  toleranceSeconds: z.number().int().nonnegative().optional(),
})

export const slugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a slug is 1–63 lower-case letters, digits and dashes, starting with a letter or digit')

/**
 * Where an endpoint's bodies are described: the spec `hookloop contract add` made it from (a file's
 * absolute path or an http(s) URL) and the operation's name there. Its requests' schema verdict is
 * their body held against that operation's message; `digest` (the spec's sha256 when it was added)
 * makes a spec changed since a "no schema" verdict that says so.
 */
export const endpointContractSchema = z.strictObject({
  spec: z.string().min(1),
  operation: z.string().min(1),
  digest: z.string().min(1).optional(),
  allow_remote_refs: z.boolean().optional(),
})
export interface EndpointContract {
  spec: string
  operation: string
  digest?: string
  /** The spec's $refs to http(s) hosts are fetched (as `contract add --allow-remote-refs` did). */
  allowRemoteRefs?: boolean
}

export const endpointInputSchema = z.strictObject({
  id: z.string().min(1).max(200).optional(),
  slug: slugSchema,
  name: z.string().max(200).optional(),
  /** Verify scheme; absent or null = no verification. */
  scheme: z.enum(SCHEME_IDS).nullable().optional(),
  secrets: z.array(z.string().min(1)).max(10).default([]),
  tolerance_s: z.number().int().nonnegative().optional(),
  custom: customHmacSchema.optional(),
  /** A dedupe key definition, or the name of a preset (`pandoktorek`, `csku`, `standard-webhooks` …). */
  dedupe: z.union([dedupeKeySchema, z.enum(DEDUPE_CATALOG.ids)]).nullable().optional(),
  dedupe_window_ms: z.number().int().positive().optional(),
  body_limit: z.number().int().positive().max(1024 * 1024 * 1024).optional(),
  /** Forward mode: where a request goes when no rule matches (instead of the default 200); several = fan-out. */
  forward_to: forwardToSchema.nullable().optional(),
  /** The spec and operation the endpoint was made for (`hookloop contract add`): its schema verdicts. */
  contract: endpointContractSchema.nullable().optional(),
})
export type EndpointInput = z.input<typeof endpointInputSchema>

/** An endpoint as the engine uses it (ids and defaults filled). */
export interface Endpoint {
  id: string
  slug: string
  name: string
  scheme: SchemeId | null
  secrets: string[]
  toleranceSeconds: number | null
  custom: CustomHmacOptions | null
  dedupe: DedupeKey | null
  dedupeWindowMs: number
  bodyLimit: number
  /** Forward targets used when no rule matches (absent or empty: answer 200). The first answers the sender. */
  forwardTo?: string[]
  /** Made by `hookloop contract add`: the spec its requests are judged against. */
  contract?: EndpointContract
  createdAt: number
}

/**
 * The endpoint back in the form people write (scenario files, listen configs, case files): the
 * inverse of parseEndpoint, and the one place the in-process names meet the snake_case ones.
 */
export function endpointDefinition(e: EndpointSettings): EndpointInput & { slug: string } {
  return {
    slug: e.slug,
    name: e.name,
    ...(e.scheme ? { scheme: e.scheme } : {}),
    secrets: e.secrets,
    ...(e.toleranceSeconds === null ? {} : { tolerance_s: e.toleranceSeconds }),
    ...(e.custom ? { custom: e.custom } : {}),
    dedupe: e.dedupe,
    dedupe_window_ms: e.dedupeWindowMs,
    body_limit: e.bodyLimit,
    ...(e.forwardTo?.length ? { forward_to: e.forwardTo } : {}),
    ...(e.contract ? { contract: contractDefinition(e.contract) } : {}),
  }
}

const contractDefinition = (c: EndpointContract) => ({ spec: c.spec, operation: c.operation, ...(c.digest ? { digest: c.digest } : {}), ...(c.allowRemoteRefs ? { allow_remote_refs: true } : {}) })

/** Validated endpoint fields (everything but id and createdAt). */
export type EndpointSettings = Omit<Endpoint, 'id' | 'createdAt'>

export function parseEndpoint(input: unknown, pathPrefix = ''): EndpointSettings & { id?: string } {
  const result = endpointInputSchema.safeParse(input)
  if (!result.success) throw toDefinitionError(result.error, input, pathPrefix)
  const e = result.data
  if (e.scheme === 'custom' && !e.custom) throw new DefinitionError(pathPrefix ? `${pathPrefix}.custom` : 'custom', 'the custom scheme needs its settings (header, algorithm, encoding)')
  const dedupe = e.dedupe == null ? null : typeof e.dedupe === 'string' ? DEDUPE_PRESETS[e.dedupe] : e.dedupe
  const settings: EndpointSettings & { id?: string } = {
    slug: e.slug,
    name: e.name ?? e.slug,
    scheme: e.scheme ?? null,
    secrets: e.secrets,
    toleranceSeconds: e.tolerance_s ?? null,
    custom: e.custom ?? null,
    dedupe: dedupe ? { ...dedupe } : null,
    dedupeWindowMs: e.dedupe_window_ms ?? DEFAULT_DEDUPE_WINDOW_MS,
    bodyLimit: e.body_limit ?? DEFAULT_BODY_LIMIT,
  }
  if (e.id !== undefined) settings.id = e.id
  const targets = forwardTargets(e.forward_to)
  if (targets.length > 0) settings.forwardTo = targets
  if (e.contract) settings.contract = { spec: e.contract.spec, operation: e.contract.operation, ...(e.contract.digest ? { digest: e.contract.digest } : {}), ...(e.contract.allow_remote_refs ? { allowRemoteRefs: true } : {}) }
  return settings
}

// ---------------------------------------------------------------- `hookloop listen` config
export const listenConfigSchema = z.strictObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  /** Longest time from a request's first byte to its last (slow clients get 408). */
  request_deadline_ms: z.number().int().positive().optional(),
  /** Memory for request bodies in flight, all requests together (past it: 503 + Retry-After). */
  body_budget_bytes: z.number().int().positive().optional(),
  endpoints: z.array(z.looseObject({ rules: z.array(z.unknown()).optional() })).default([]),
})

export interface ListenConfig {
  host?: string
  port?: number
  requestDeadlineMs?: number
  bodyBudgetBytes?: number
  endpoints: { endpoint: EndpointSettings & { id?: string }; rules: Rule[] }[]
}

/** Validates a whole config; the DefinitionError's path points into the file (`endpoints[0].rules[1].steps[0]`). */
export function parseListenConfig(input: unknown): ListenConfig {
  const result = listenConfigSchema.safeParse(input)
  if (!result.success) throw toDefinitionError(result.error, input)
  const out: ListenConfig = { endpoints: [] }
  if (result.data.host !== undefined) out.host = result.data.host
  if (result.data.port !== undefined) out.port = result.data.port
  if (result.data.request_deadline_ms !== undefined) out.requestDeadlineMs = result.data.request_deadline_ms
  if (result.data.body_budget_bytes !== undefined) out.bodyBudgetBytes = result.data.body_budget_bytes
  const slugs = new Set<string>()
  result.data.endpoints.forEach((raw, i) => {
    const { rules = [], ...endpointFields } = raw
    const endpoint = parseEndpoint(endpointFields, `endpoints[${i}]`)
    if (slugs.has(endpoint.slug)) throw new DefinitionError(`endpoints[${i}].slug`, `the slug "${endpoint.slug}" is used twice`)
    slugs.add(endpoint.slug)
    out.endpoints.push({ endpoint, rules: rules.map((rule, j) => parseRuleOrPreset(rule, `endpoints[${i}].rules[${j}]`)) })
  })
  return out
}
