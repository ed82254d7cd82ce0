// A stored body read as JSON: bodies are kept as they arrived, compressed ones too.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** The most a compressed body is inflated to (a bomb stops there, and reads as not JSON). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024

const header = (headers: readonly [string, string][], name: string): string | undefined => headers.find(([key]) => key.toLowerCase() === name)?.[1]

/** The body as JSON, inflated first when it came compressed; null when it is not JSON. */
export function parseBody(body: Buffer, headers: readonly [string, string][]): { json: unknown } | null {
  try {
    const encoding = header(headers, 'content-encoding')?.trim().toLowerCase()
    const options = { maxOutputLength: MAX_INFLATED_BYTES }
    const raw = encoding === 'gzip' || encoding === 'x-gzip' ? gunzipSync(body, options) : encoding === 'deflate' ? inflateSync(body, options) : encoding === 'br' ? brotliDecompressSync(body, options) : body
    return { json: JSON.parse(raw.toString('utf8')) }
  } catch {
    return null
  }
}
