// Exchanges → a bash script of cURL commands that send the same bytes (shared/curl.ts, 'script').
import { curlCommand } from '../../../shared/curl'
import type { Exchange } from './exchange'
import { simulatedWords } from './har'
import type { Redactor } from './redact'

function command(exchange: Exchange, redactor: Redactor): string {
  const describe = `${exchange.hookloop.source} ${exchange.hookloop.id} · ${new Date(exchange.startedAt).toISOString()}${simulatedWords(exchange)} · ${exchange.hookloop.outcome}`
  const headers = redactor.headers(exchange.headers).map(([name, value]) => ({ name, value }))
  return `# ${describe.replace(/[\r\n]/g, ' ')}\n${curlCommand({ method: exchange.method, url: redactor.url(exchange.url), headers, body: exchange.body }, 'script')}`
}

export function toCurlScript(exchanges: readonly Exchange[], redactor: Redactor): string {
  const header = ['#!/usr/bin/env bash', '# Exported by Hookloop: one curl command per request, sending the same bytes.']
  if (redactor.active) header.push('# Secrets and signature headers are redacted: re-sign with `hookloop sign` before sending.')
  return [...header, '', ...exchanges.map((e) => command(e, redactor)), ''].join('\n\n').replace(/\n\n\n+/g, '\n\n')
}
