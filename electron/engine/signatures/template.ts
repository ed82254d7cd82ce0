import type { SignedParts } from './mac'

export interface TemplateValues {
  body: Uint8Array
  timestamp?: string
  id?: string
  url?: string
}

export type Placeholder = 'body' | 'timestamp' | 'id' | 'url'
const PLACEHOLDER = /\{(body|timestamp|id|url)\}/g

export function placeholders(template: string): Set<Placeholder> {
  return new Set(Array.from(template.matchAll(PLACEHOLDER), (m) => m[1] as Placeholder))
}

/** The signed message for a template like `{timestamp}.{body}`; the body stays raw bytes. */
export function renderTemplate(template: string, values: TemplateValues): SignedParts {
  const parts: SignedParts = []
  let last = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(last, match.index))
    const name = match[1] as Placeholder
    parts.push(name === 'body' ? values.body : (values[name] ?? ''))
    last = match.index + match[0].length
  }
  parts.push(template.slice(last))
  return parts
}
