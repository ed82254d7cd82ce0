// Exchanges → a bash script of cURL commands that send the same bytes. Single-quoted words with
// ' closed and escaped; a body goes as $'…' (ANSI-C quoting, every byte escaped that needs it),
// or piped through base64 -d when it holds a NUL byte (which no shell argument can carry).
import type { Exchange } from './exchange'
import type { Redactor } from './redact'

/** Headers curl writes itself, or that would break a resend. */
const SKIP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade'])

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** $'…' with every byte outside printable ASCII, and \ and ', escaped: exact bytes, any content without NUL. */
export function ansiCQuote(bytes: Buffer): string {
  let out = "$'"
  for (const byte of bytes) {
    if (byte === 0x5c) out += '\\\\'
    else if (byte === 0x27) out += "\\'"
    else if (byte === 0x0a) out += '\\n'
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte)
    else out += `\\x${byte.toString(16).padStart(2, '0')}`
  }
  return out + "'"
}

function command(exchange: Exchange, redactor: Redactor): string {
  const lines: string[] = []
  const describe = `${exchange.hookloop.source} ${exchange.hookloop.id} · ${new Date(exchange.startedAt).toISOString()} · ${exchange.hookloop.outcome}`
  lines.push(`# ${describe.replace(/[\r\n]/g, ' ')}`)
  const parts = [`curl -sS -X ${shellQuote(exchange.method)} ${shellQuote(redactor.url(exchange.url))}`]
  for (const [name, value] of redactor.headers(exchange.headers)) {
    if (SKIP.has(name.toLowerCase())) continue
    // curl drops a header given as "name:" — "name;" sends it empty.
    parts.push(`-H ${shellQuote(value === '' ? `${name};` : `${name}: ${value}`)}`)
  }
  if (exchange.body.length === 0) return [...lines, parts.join(' \\\n  ')].join('\n')
  if (!exchange.body.includes(0)) {
    parts.push(`--data-binary ${ansiCQuote(exchange.body)}`)
    return [...lines, parts.join(' \\\n  ')].join('\n')
  }
  parts.push('--data-binary @-')
  return [...lines, `printf %s ${shellQuote(exchange.body.toString('base64'))} | base64 -d | ${parts.join(' \\\n  ')}`].join('\n')
}

export function toCurlScript(exchanges: readonly Exchange[], redactor: Redactor): string {
  const header = ['#!/usr/bin/env bash', '# Exported by Hookloop: one curl command per request, sending the same bytes.']
  if (redactor.active) header.push('# Secrets and signature headers are redacted: re-sign with `hookloop sign` before sending.')
  return [...header, '', ...exchanges.map((e) => command(e, redactor)), ''].join('\n\n').replace(/\n\n\n+/g, '\n\n')
}
