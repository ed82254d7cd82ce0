// Reading a HAR 1.2 or a Hookloop case file as an incident: what arrived at our endpoints (when,
// where, with which body, and what we answered), what our sender tried (each attempt and its
// outcome), and the setup when the file carries it. `parseImportFile` reads the same files for a
// replay, which needs neither times nor verdicts; this is what turning a file into a scenario
// needs. Broken files get the same ImportError, naming the entry and field.
import { CASE_FILE_VERSION, type CaseFile } from '../../../shared/contract'
import { bodyFrom, caseBody, headerList, ImportError, isObject, type Json } from './import'

export interface IncidentRequest {
  label: string
  /** When it arrived, ms since the epoch. */
  at: number
  /** The endpoint's slug; null when unknown (a HAR from another tool names none, or no endpoint matched). */
  endpoint: string | null
  method: string
  /** The URL it was sent to, as the file has it; null when the file does not say. */
  url: string | null
  headers: [string, string][]
  body: Buffer
  /** What we answered, receiver side: http_<status>, timed_out, closed, reset, malformed, client_gone; null when unknown. */
  outcome: string | null
  /** How long the answer took, ms; null when unknown. */
  ms: number | null
  /** The signature verdict; null when not verified or unknown. */
  verify: { valid: boolean; reason: string } | null
  /** The dedupe number (1 = first arrival); null when the endpoint did not dedupe; undefined when unknown. */
  duplicate: number | null | undefined
}

export interface IncidentAttempt {
  n: number
  at: number
  outcome: string
  /** The sender's decision after it (succeeded, retry, failed); null when unknown. */
  decision: string | null
  durationMs: number | null
}

export interface IncidentDelivery {
  label: string
  eventId: string
  eventType: string | null
  /** The subscription's id in the file's setup; null when the file has no setup (HAR). */
  subscription: string | null
  status: string | null
  body: Buffer
  attempts: IncidentAttempt[]
}

export interface Incident {
  kind: 'har' | 'case'
  setup: CaseFile['setup'] | null
  requests: IncidentRequest[]
  deliveries: IncidentDelivery[]
}

function time(where: string, value: unknown): number {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (!Number.isFinite(at)) throw new ImportError(`${where} is not an ISO 8601 time (got ${JSON.stringify(value ?? null)})`)
  return at
}

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

function verdict(value: unknown): IncidentRequest['verify'] {
  return isObject(value) && typeof value.valid === 'boolean' && typeof value.reason === 'string' ? { valid: value.valid, reason: value.reason } : null
}

/** The slug of a Hookloop endpoint URL (`…/h/<slug>`), when the URL is one. */
function slugOfUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null
  const match = /\/h\/([^/?#]+)/.exec(url)
  return match ? decodeURIComponent(match[1]!) : null
}

function harRequest(entry: Json, where: string, hookloop: Json | null): IncidentRequest {
  const request = entry.request as Json
  if (typeof request.method !== 'string' || request.method === '') throw new ImportError(`${where}.request.method is missing`)
  const postData = request.postData
  if (postData !== undefined && !isObject(postData)) throw new ImportError(`${where}.request.postData must be an object`)
  const response = isObject(entry.response) ? entry.response : null
  const status = response && typeof response.status === 'number' && response.status > 0 ? response.status : null
  const duplicate = hookloop && 'duplicate_number' in hookloop ? numberOrNull(hookloop.duplicate_number) : undefined
  return {
    label: typeof entry.comment === 'string' && entry.comment ? entry.comment : where,
    at: time(`${where}.startedDateTime`, entry.startedDateTime),
    endpoint: typeof hookloop?.endpoint === 'string' ? hookloop.endpoint : slugOfUrl(request.url),
    method: request.method,
    url: typeof request.url === 'string' && request.url !== '' ? request.url : null,
    headers: headerList(`${where}.request.headers`, request.headers ?? []),
    body: postData ? bodyFrom(`${where}.request.postData`, postData.text, postData.encoding ?? postData._encoding) : Buffer.alloc(0),
    outcome: typeof hookloop?.outcome === 'string' ? hookloop.outcome : status !== null ? `http_${status}` : null,
    ms: numberOrNull(entry.time),
    verify: verdict(hookloop?.verify),
    duplicate,
  }
}

function fromHar(root: Json): Incident {
  const log = root.log
  if (!isObject(log) || log.version !== '1.2' || !Array.isArray(log.entries)) throw new ImportError('not HAR 1.2: expected log.version "1.2" and log.entries')
  const requests: IncidentRequest[] = []
  const deliveries = new Map<string, IncidentDelivery>()
  log.entries.forEach((entry: unknown, i: number) => {
    const where = `log.entries[${i}]`
    if (!isObject(entry) || !isObject(entry.request)) throw new ImportError(`${where}: request is missing`)
    const hookloop = isObject(entry._hookloop) ? entry._hookloop : null
    if (hookloop?.source !== 'attempt') {
      requests.push(harRequest(entry, where, hookloop))
      return
    }
    // One of our sender's attempts: grouped back into its delivery.
    const key = String(hookloop.delivery_id ?? hookloop.event_id ?? i)
    const postData = isObject(entry.request.postData) ? entry.request.postData : null
    const delivery = deliveries.get(key) ?? {
      label: `delivery ${key}`,
      eventId: typeof hookloop.event_id === 'string' ? hookloop.event_id : '',
      eventType: null,
      subscription: null,
      status: null,
      body: postData ? bodyFrom(`${where}.request.postData`, postData.text, postData.encoding) : Buffer.alloc(0),
      attempts: [],
    }
    deliveries.set(key, delivery)
    delivery.attempts.push({
      n: typeof hookloop.attempt === 'number' ? hookloop.attempt : delivery.attempts.length + 1,
      at: time(`${where}.startedDateTime`, entry.startedDateTime),
      outcome: typeof hookloop.outcome === 'string' ? hookloop.outcome : 'connection_error',
      decision: null,
      durationMs: numberOrNull(entry.time),
    })
  })
  if (requests.length + deliveries.size === 0) throw new ImportError('the HAR file has no entries')
  return { kind: 'har', setup: null, requests, deliveries: [...deliveries.values()] }
}

function caseSetup(root: Json): CaseFile['setup'] {
  const setup = root.setup
  if (setup === undefined) return { endpoints: [], subscriptions: [] }
  if (!isObject(setup)) throw new ImportError('setup must be an object')
  const list = (name: 'endpoints' | 'subscriptions' | 'global_rules'): Record<string, unknown>[] => {
    const value = setup[name] ?? []
    if (!Array.isArray(value) || !value.every(isObject)) throw new ImportError(`setup.${name} must be a list of objects`)
    return value
  }
  const globalRules = list('global_rules')
  return { endpoints: list('endpoints'), subscriptions: list('subscriptions'), ...(globalRules.length > 0 ? { global_rules: globalRules } : {}) }
}

function fromCase(root: Json): Incident {
  if (root.hookloop_case !== CASE_FILE_VERSION) throw new ImportError(`not a Hookloop case file of version ${CASE_FILE_VERSION}: hookloop_case is ${JSON.stringify(root.hookloop_case)}`)
  const rawRequests = root.requests ?? []
  const rawDeliveries = root.deliveries ?? []
  if (!Array.isArray(rawRequests)) throw new ImportError('requests must be a list')
  if (!Array.isArray(rawDeliveries)) throw new ImportError('deliveries must be a list')
  const requests = rawRequests.map((r: unknown, i: number): IncidentRequest => {
    const where = `requests[${i}]`
    if (!isObject(r)) throw new ImportError(`${where} must be an object`)
    if (typeof r.method !== 'string') throw new ImportError(`${where}.method is missing`)
    const response = isObject(r.response) ? r.response : {}
    return {
      label: `request ${String(r.id ?? i + 1)}`,
      at: time(`${where}.received_at`, r.received_at),
      endpoint: typeof r.endpoint === 'string' ? r.endpoint : null,
      method: r.method,
      url: typeof r.url === 'string' && r.url !== '' ? r.url : null,
      headers: headerList(`${where}.headers`, r.headers ?? []),
      body: caseBody(`${where}.body`, r.body),
      outcome: typeof r.outcome === 'string' ? r.outcome : null,
      ms: numberOrNull(response.ms),
      verify: verdict(r.verify),
      duplicate: 'duplicate_number' in r ? numberOrNull(r.duplicate_number) : undefined,
    }
  })
  const deliveries = rawDeliveries.map((d: unknown, i: number): IncidentDelivery => {
    const where = `deliveries[${i}]`
    if (!isObject(d) || !Array.isArray(d.attempts)) throw new ImportError(`${where}.attempts is missing`)
    return {
      label: `delivery ${String(d.id ?? i + 1)}`,
      eventId: typeof d.event_id === 'string' ? d.event_id : '',
      eventType: typeof d.event_type === 'string' ? d.event_type : null,
      subscription: typeof d.subscription === 'string' ? d.subscription : null,
      status: typeof d.status === 'string' ? d.status : null,
      body: caseBody(`${where}.body`, d.body),
      attempts: d.attempts.map((a: unknown, j: number): IncidentAttempt => {
        if (!isObject(a)) throw new ImportError(`${where}.attempts[${j}] must be an object`)
        return {
          n: typeof a.n === 'number' ? a.n : j + 1,
          at: time(`${where}.attempts[${j}].started_at`, a.started_at),
          outcome: typeof a.outcome === 'string' ? a.outcome : 'connection_error',
          decision: typeof a.decision === 'string' ? a.decision : null,
          durationMs: numberOrNull(a.duration_ms),
        }
      }),
    }
  })
  if (requests.length + deliveries.length === 0) throw new ImportError('the case file has no requests or deliveries')
  return { kind: 'case', setup: caseSetup(root), requests, deliveries }
}

/** A HAR 1.2 or case file's text → the incident it records. Throws ImportError. */
export function parseIncident(text: string): Incident {
  let root: unknown
  try {
    root = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ImportError(`not JSON: ${(error as Error).message}`)
  }
  if (!isObject(root)) throw new ImportError('not a HAR or case file: the top level must be a JSON object')
  if ('log' in root) return fromHar(root)
  if ('hookloop_case' in root) return fromCase(root)
  throw new ImportError('neither a HAR 1.2 file (no "log") nor a Hookloop case file (no "hookloop_case")')
}
