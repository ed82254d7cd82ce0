// The body as the dedupe key and the rules see it: a sparse JSON document holding only the fields
// they named, read by the bounded extractor (json-fields.ts). readJsonPath works on it as on a
// parsed body, so keys and matchers are written once; leaves keep what JSON.parse would lose.
import { isUtf8 } from 'node:buffer'
import type { JsonPath } from '../../../shared/receiver'
import { KEY_MAX_BYTES } from './dedupe-limits'
import { DEFAULT_INSPECT_LIMITS, NotInspected, pathId, readJsonField, type InspectLimits, type JsonScalar } from './json-fields'

/** A string value whose bytes are not valid UTF-8: kept as bytes so two such keys stay distinct. */
export class KeyBytes {
  constructor(readonly bytes: Buffer) {}
}

/** A number as written (`820982911946154508` stays that, not 820982911946154500). */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

/** An object or array at the path: present, but not a scalar. */
const CONTAINER = Object.freeze({ [Symbol.for('hookloop.container')]: true })

export interface BodyDocument {
  /** The sparse document (undefined when no field was found). */
  json: unknown
  /** Why the body was not inspected (the limits were reached), or null. */
  notInspected: string | null
}

function leaf(value: JsonScalar): unknown {
  switch (value.type) {
    case 'string':
      // Long or not UTF-8: kept as the body's own bytes (no 10 MB string, no copy); the key becomes their digest.
      return value.bytes.length <= KEY_MAX_BYTES && isUtf8(value.bytes) ? value.bytes.toString('utf8') : new KeyBytes(value.bytes)
    case 'number':
      return new JsonNumberText(value.text)
    case 'boolean':
      return value.text === 'true'
    case 'null':
      return null
    case 'container':
      return CONTAINER
    default: {
      const never: never = value
      return never
    }
  }
}

/** Sets `value` at `path` in `root`, creating objects and (sparse) arrays on the way. */
function place(root: { value: unknown }, path: JsonPath, value: unknown): void {
  let holder: Record<string | number, unknown> = root as unknown as Record<string, unknown>
  let slot: string | number = 'value'
  for (const part of path) {
    let next = holder[slot]
    const wantArray = typeof part === 'number'
    if (next === undefined || next === CONTAINER) {
      next = wantArray ? [] : {}
      holder[slot] = next
    }
    if (next === null || typeof next !== 'object' || Array.isArray(next) !== wantArray) return // conflicting shapes: the first wins
    holder = next as Record<string | number, unknown>
    slot = part
  }
  if (holder[slot] === undefined) holder[slot] = value
}

/** Reads each path once; past the limits the rest is left unread and the reason returned. */
export async function readBodyDocument(body: Buffer, paths: readonly JsonPath[], limits: InspectLimits = DEFAULT_INSPECT_LIMITS): Promise<BodyDocument> {
  const root: { value: unknown } = { value: undefined }
  const seen = new Set<string>()
  for (const path of paths) {
    const id = pathId(path)
    if (seen.has(id)) continue
    seen.add(id)
    try {
      const value = await readJsonField(body, path, limits)
      if (value !== undefined) place(root, path, leaf(value))
    } catch (error) {
      if (!(error instanceof NotInspected)) throw error
      // The body proved too big or too deep for one path: reading the others would hit the same wall.
      return { json: root.value, notInspected: error.message }
    }
  }
  return { json: root.value, notInspected: null }
}
