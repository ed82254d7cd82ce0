// Resend to your app: any captured request sent to a target again, on demand — as it was (the
// original signature, to test the app's checks), edited and re-signed with the endpoint's secret,
// or edited with the signature left broken on purpose. Each resend is a stored `resend` leg.
import type { ForwardLeg, Endpoint, RequestRecord } from '../../../shared/receiver'
import { DefinitionError, targetUrlProblem } from '../../../shared/receiver'
import { SCHEMES } from '../../../shared/signatures'
import { sign } from '../signatures'
import { outboundHeaders, type Forwarder, type ForwardSource } from './forward'

export const RESEND_MODES = ['as-is', 'resign', 'broken'] as const
export type ResendMode = (typeof RESEND_MODES)[number]

export interface ResendOptions {
  to: string
  mode: ResendMode
  /** Headers to set (replacing any of the same name). */
  headers?: [string, string][]
  /** A new body; the original bytes when absent. */
  body?: Uint8Array
  timeoutMs?: number
}

/**
 * The headers with the endpoint's signature made again over `body` (the scheme's own headers
 * replaced, the event id kept): an edited request its consumer accepts. `url`: where it is sent,
 * for URL-signed schemes. Throws like sign() for an unusable secret.
 */
export function resignHeaders(endpoint: Pick<Endpoint, 'scheme' | 'secrets' | 'custom'>, headers: readonly [string, string][], body: Uint8Array, url: string): [string, string][] {
  if (!endpoint.scheme || endpoint.secrets.length === 0) throw new DefinitionError('resign', "re-signing needs the endpoint's scheme and a secret")
  const meta = SCHEMES[endpoint.scheme]
  const idHeader = meta.idHeader ?? endpoint.custom?.idHeader?.toLowerCase()
  const id = idHeader ? headers.find(([n]) => n.toLowerCase() === idHeader)?.[1] : undefined
  const schemeHeaders = new Set([...meta.headers, ...(endpoint.custom ? [endpoint.custom.header.toLowerCase()] : [])])
  const signed = sign(endpoint.scheme, { body, secret: endpoint.secrets[0] as string, ...(id ? { id } : {}), url, ...(endpoint.custom ? { custom: endpoint.custom } : {}) })
  return setHeaders(headers.filter(([n]) => !schemeHeaders.has(n.toLowerCase()) || n.toLowerCase() === idHeader), Object.entries(signed))
}

export function setHeaders(base: readonly [string, string][], edits: readonly [string, string][]): [string, string][] {
  const names = new Set(edits.map(([n]) => n.toLowerCase()))
  return [...base.filter(([n]) => !names.has(n.toLowerCase())), ...edits]
}

/** Sends the request again and stores the leg; bad options are a DefinitionError naming the field. */
export async function resendRequest(forwarder: Forwarder, request: RequestRecord, endpoint: Endpoint | null, options: ResendOptions): Promise<ForwardLeg> {
  const problem = targetUrlProblem(options.to)
  if (problem) throw new DefinitionError('to', problem)
  const body = Buffer.from(options.body ?? request.body)
  let headers = setHeaders(request.headers, options.headers ?? [])
  if (options.mode === 'resign') {
    if (!endpoint?.scheme || endpoint.secrets.length === 0) throw new DefinitionError('mode', 're-signing needs the endpoint\'s scheme and a secret; this request\'s endpoint has none')
    headers = resignHeaders(endpoint, headers, body, options.to)
  }
  if (options.mode === 'broken' && options.body === undefined && (options.headers ?? []).length === 0) {
    throw new DefinitionError('mode', '"broken" sends an edited request with the original signature: edit the body or a header')
  }
  const bodyCaptured = options.body === undefined && !request.bodyTruncated
  const source: ForwardSource = { id: request.id, method: request.method, subPath: '', query: '', headers, body, remoteAddress: request.remoteAddress, bodyCaptured }
  const url = new URL(options.to)
  const { leg } = await forwarder.send(source, { url: options.to, ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}) }, 'resend', { headers: outboundHeaders(source, url, false) })
  return leg
}
