// Reading a HAR 1.2 or a Hookloop case file back into requests to replay. A broken file gets an
// ImportError that says what is wrong and where (entry number, field), never a stack trace.
import { CASE_FILE_VERSION, type ReplayItem } from '../../../shared/contract'
import { decodeBase64 } from './body'

export class ImportError extends Error {
  override readonly name = 'ImportError'
}

export type Json = Record<string, unknown>
export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

export function bodyFrom(where: string, text: unknown, encoding: unknown): Buffer {
  if (text === undefined || text === null) return Buffer.alloc(0)
  if (typeof text !== 'string') throw new ImportError(`${where}: text must be a string`)
  if (encoding === undefined || encoding === null || encoding === '') return Buffer.from(text, 'utf8')
  if (encoding !== 'base64') throw new ImportError(`${where}: encoding "${String(encoding)}" is not supported (only base64)`)
  const bytes = decodeBase64(text)
  if (!bytes) throw new ImportError(`${where}: text is not valid base64 although encoding is base64`)
  return bytes
}

export function headerList(where: string, value: unknown): [string, string][] {
  if (!Array.isArray(value)) throw new ImportError(`${where} must be a list`)
  return value.map((h, i) => {
    if (isObject(h) && typeof h.name === 'string' && typeof h.value === 'string') return [h.name, h.value]
    if (Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string') return [h[0], h[1]]
    throw new ImportError(`${where}[${i}] is not a header (name and value strings)`)
  })
}

function fromHar(root: Json): ReplayItem[] {
  const log = root.log
  if (!isObject(log)) throw new ImportError('not HAR 1.2: "log" must be an object')
  if (log.version !== '1.2') throw new ImportError(`not HAR 1.2: log.version is ${JSON.stringify(log.version ?? null)}, expected "1.2"`)
  if (!Array.isArray(log.entries)) throw new ImportError('not HAR 1.2: log.entries is missing')
  if (log.entries.length === 0) throw new ImportError('the HAR file has no entries to replay')
  return log.entries.map((entry: unknown, i: number): ReplayItem => {
    const where = `log.entries[${i}]`
    if (!isObject(entry) || !isObject(entry.request)) throw new ImportError(`${where}: request is missing`)
    const request = entry.request
    if (typeof request.method !== 'string' || request.method === '') throw new ImportError(`${where}.request.method is missing`)
    const postData = request.postData
    if (postData !== undefined && !isObject(postData)) throw new ImportError(`${where}.request.postData must be an object`)
    const body = postData ? bodyFrom(`${where}.request.postData`, postData.text, postData.encoding ?? postData._encoding) : Buffer.alloc(0)
    const response = isObject(entry.response) ? entry.response : null
    const status = response && typeof response.status === 'number' && response.status > 0 ? response.status : null
    const hookloop = isObject(entry._hookloop) ? entry._hookloop : null
    const verify = hookloop && isObject(hookloop.verify) ? (hookloop.verify as { valid: boolean; reason: string }) : null
    const outcome = typeof hookloop?.outcome === 'string' ? hookloop.outcome : status !== null ? `http_${status}` : null
    return {
      label: typeof entry.comment === 'string' && entry.comment ? entry.comment : `entry ${i + 1}`,
      method: request.method,
      headers: headerList(`${where}.request.headers`, request.headers ?? []),
      body,
      original_outcome: outcome,
      original_verify: verify,
    }
  })
}

export function caseBody(where: string, value: unknown): Buffer {
  if (!isObject(value)) throw new ImportError(`${where} must be {"text": …} or {"base64": …}`)
  if (typeof value.text === 'string') return Buffer.from(value.text, 'utf8')
  if (typeof value.base64 === 'string') return bodyFrom(where, value.base64, 'base64')
  throw new ImportError(`${where} must be {"text": …} or {"base64": …}`)
}

function fromCase(root: Json): ReplayItem[] {
  if (root.hookloop_case !== CASE_FILE_VERSION) throw new ImportError(`not a Hookloop case file of version ${CASE_FILE_VERSION}: hookloop_case is ${JSON.stringify(root.hookloop_case)}`)
  const requests = root.requests ?? []
  const deliveries = root.deliveries ?? []
  if (!Array.isArray(requests)) throw new ImportError('requests must be a list')
  if (!Array.isArray(deliveries)) throw new ImportError('deliveries must be a list')
  // A request one of the file's own deliveries made (its attempt link header and that delivery's
  // event id) is that attempt: it is sent once, as the attempt, with the verdict it got.
  const deliveryEventIds = new Set(deliveries.map((d: unknown) => (isObject(d) && typeof d.event_id === 'string' ? d.event_id : '')).filter((id) => id !== ''))
  const attemptVerdicts = new Map<string, ({ valid: boolean; reason: string } | null)[]>()
  const items: ReplayItem[] = []
  requests.forEach((r: unknown, i: number) => {
    const where = `requests[${i}]`
    if (!isObject(r)) throw new ImportError(`${where} must be an object`)
    if (typeof r.method !== 'string') throw new ImportError(`${where}.method is missing`)
    const headers = headerList(`${where}.headers`, r.headers ?? [])
    const verify = isObject(r.verify) ? (r.verify as { valid: boolean; reason: string }) : null
    const ofDelivery = headers.some(([n]) => n.toLowerCase() === 'x-hookloop-attempt') ? headers.find(([, v]) => deliveryEventIds.has(v))?.[1] : undefined
    if (ofDelivery !== undefined) {
      attemptVerdicts.set(ofDelivery, [...(attemptVerdicts.get(ofDelivery) ?? []), verify])
      return
    }
    items.push({
      label: `request ${String(r.id ?? i + 1)}`,
      method: r.method,
      headers,
      body: caseBody(`${where}.body`, r.body),
      original_outcome: typeof r.outcome === 'string' ? r.outcome : null,
      original_verify: verify,
    })
  })
  deliveries.forEach((d: unknown, i: number) => {
    const where = `deliveries[${i}]`
    if (!isObject(d) || !Array.isArray(d.attempts)) throw new ImportError(`${where}.attempts is missing`)
    const body = caseBody(`${where}.body`, d.body)
    d.attempts.forEach((a: unknown, j: number) => {
      if (!isObject(a)) throw new ImportError(`${where}.attempts[${j}] must be an object`)
      items.push({
        label: `delivery ${String(d.id ?? i + 1)} attempt ${String(a.n ?? j + 1)}`,
        method: 'POST',
        headers: headerList(`${where}.attempts[${j}].request_headers`, a.request_headers ?? []),
        body,
        original_outcome: typeof a.outcome === 'string' ? a.outcome : null,
        original_verify: (typeof d.event_id === 'string' ? attemptVerdicts.get(d.event_id)?.shift() : undefined) ?? null,
      })
    })
  })
  if (items.length === 0) throw new ImportError('the case file has no requests or delivery attempts to replay')
  return items
}

/** A HAR 1.2 or case file's text → the requests to replay. Throws ImportError. */
export function parseImportFile(text: string): { kind: 'har' | 'case'; items: ReplayItem[] } {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new ImportError(`not JSON: ${(error as Error).message}`)
  }
  if (!isObject(root)) throw new ImportError('not a HAR or case file: the top level must be a JSON object')
  if ('log' in root) return { kind: 'har', items: fromHar(root) }
  if ('hookloop_case' in root) return { kind: 'case', items: fromCase(root) }
  throw new ImportError('neither a HAR 1.2 file (no "log") nor a Hookloop case file (no "hookloop_case")')
}
