// Exchanges → HAR 1.2 (opens in browser devtools and HTTP tools). Bodies that are not UTF-8 text
// are base64 with `encoding: "base64"` — in response content as HAR defines it, and in postData
// the same way (the field other tools read there too). Sizes are byte counts; -1 = unknown.
import { STATUS_CODES } from 'node:http'
import type { Har, HarEntry, HarNameValue } from '../../../shared/contract'
import { headerValue, utf8Text } from './body'
import type { Exchange } from './exchange'
import type { Redactor } from './redact'

const pairs = (headers: readonly [string, string][]): HarNameValue[] => headers.map(([name, value]) => ({ name, value }))

function queryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

function bodyFields(body: Buffer): { text: string; encoding?: 'base64' } {
  const text = utf8Text(body)
  return text !== null ? { text } : { text: body.toString('base64'), encoding: 'base64' }
}

function entryLabel(h: Exchange['hookloop']): string {
  const made = h.source === 'request' && h.attempt_id !== undefined ? ` (delivery ${h.delivery_id} attempt ${h.attempt})` : ''
  return `${h.source} ${h.id}${made}: ${h.outcome}`
}

/** After a simulated startedDateTime: it is a simulation's time, and the wall time it happened. */
export function simulatedWords(exchange: Exchange): string {
  const h = exchange.hookloop
  if (!h.simulation_id) return ''
  return ` (time on simulation ${h.simulation_id}'s clock, not a wall date${h.wall_at ? `; at ${h.wall_at} on the wall` : ''})`
}

function toEntry(exchange: Exchange, redactor: Redactor): HarEntry {
  const headers = redactor.headers(exchange.headers)
  const mimeType = headerValue(exchange.headers, 'content-type') ?? 'application/octet-stream'
  const response = exchange.response
  const responseHeaders = response ? redactor.headers(response.headers) : []
  const time = Math.max(0, exchange.timeMs)
  const url = redactor.url(exchange.url)
  return {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time,
    request: {
      method: exchange.method,
      url,
      httpVersion: exchange.httpVersion,
      cookies: [],
      headers: pairs(headers),
      queryString: queryString(url),
      ...(exchange.body.length > 0 || exchange.method !== 'GET' ? { postData: { mimeType, ...bodyFields(exchange.body) } } : {}),
      headersSize: -1,
      bodySize: exchange.body.length,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response ? (STATUS_CODES[response.status] ?? '') : '',
      httpVersion: response ? exchange.httpVersion : '',
      cookies: [],
      headers: pairs(responseHeaders),
      content: response
        ? { size: response.body.length, mimeType: headerValue(response.headers, 'content-type') ?? 'application/octet-stream', ...(response.body.length > 0 ? bodyFields(response.body) : {}) }
        : { size: 0, mimeType: 'x-unknown' },
      redirectURL: response ? (headerValue(response.headers, 'location') ?? '') : '',
      headersSize: -1,
      bodySize: response ? response.body.length : -1,
    },
    cache: {},
    // The whole time is waiting for the answer: Hookloop does not time send and receive apart.
    timings: { send: 0, wait: time, receive: 0 },
    comment: `${entryLabel(exchange.hookloop)}${simulatedWords(exchange)}`,
    _hookloop: exchange.hookloop,
  }
}

const REDACTED_HAR_COMMENT =
  'Secrets and signature headers are redacted. A request keeps its schema verdict (_hookloop.schema) and, when its signature did not match, that verdict (_hookloop.verify): hookloop replay re-signs it with a stand-in wrong secret, so the mismatch is reproduced.'

export function toHar(exchanges: readonly Exchange[], redactor: Redactor, version: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'Hookloop', version },
      entries: exchanges.map((e) => toEntry(e, redactor)),
      ...(redactor.active ? { comment: REDACTED_HAR_COMMENT } : {}),
    },
  }
}
