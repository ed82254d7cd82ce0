// The ways a body commonly changes between the sender's signature and the verifier: a JSON
// parser plus JSON.stringify (whitespace, indentation, key order) or an editor's newline.
// Trying them turns "signature mismatch" into the actual mistake.

export interface BodyVariant {
  body: Buffer
  /** Completes "the signature matches …". */
  explanation: string
}

// Re-serialising a huge body several times to explain a mismatch is not worth the CPU.
const MAX_JSON_VARIANT_BYTES = 1 << 20

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key])
    return sorted
  }
  return value
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

const RESERIALISED = 'the body appears re-serialised: verify the raw bytes exactly as received, before any JSON parsing'

function jsonVariants(body: Uint8Array): BodyVariant[] {
  if (body.length > MAX_JSON_VARIANT_BYTES) return []
  const parsed = parseJson(Buffer.from(body).toString('utf8'))
  if (!parsed || parsed.value === null || typeof parsed.value !== 'object') return []
  const sorted = sortKeys(parsed.value)
  const texts: Array<[string, string]> = [
    [JSON.stringify(parsed.value), 'compact JSON'],
    [JSON.stringify(parsed.value, null, 2), '2-space indented JSON'],
    [JSON.stringify(sorted), 'compact JSON with sorted keys'],
    [JSON.stringify(sorted, null, 2), '2-space indented JSON with sorted keys'],
  ]
  return texts.map(([text, shape]) => ({
    body: Buffer.from(text, 'utf8'),
    explanation: `this JSON written as ${shape}, not the bytes received, so ${RESERIALISED}`,
  }))
}

function newlineVariants(body: Uint8Array): BodyVariant[] {
  const bytes = Buffer.from(body)
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0a) {
    const cut = bytes.length > 1 && bytes[bytes.length - 2] === 0x0d ? 2 : 1
    return [{ body: bytes.subarray(0, bytes.length - cut), explanation: 'the body without its trailing newline, so a newline was added after signing (an editor saving the file?): verify the raw bytes exactly as sent' }]
  }
  return [{ body: Buffer.concat([bytes, Buffer.from('\n')]), explanation: 'the body with a trailing newline, so the newline was lost after signing: verify the raw bytes exactly as sent' }]
}

/** Variants of the body, each different from the body itself. */
export function bodyVariants(body: Uint8Array): BodyVariant[] {
  const original = Buffer.from(body)
  const seen = new Set<string>([original.toString('latin1')])
  const variants: BodyVariant[] = []
  // Newline first: a JSON body plus a newline also matches "compact JSON", but the newline is the real story.
  for (const variant of [...newlineVariants(body), ...jsonVariants(body)]) {
    const fingerprint = variant.body.toString('latin1')
    if (seen.has(fingerprint)) continue
    seen.add(fingerprint)
    variants.push(variant)
  }
  return variants
}
