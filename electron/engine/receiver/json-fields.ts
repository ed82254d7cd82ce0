// Reads the few body fields an endpoint needs (its dedupe key, its rules' event-type paths) straight
// from the raw JSON bytes, without building the document: it walks down the path and skips every
// other value by counting brackets. Work is bounded twice — by bytes examined and by nesting depth —
// and it gives the event loop back every slice, so a 10 MB JSON bomb neither holds other requests
// nor grows the heap. Numbers come back as their source text (64-bit ids are not rounded) and
// strings as their exact bytes (invalid UTF-8 stays distinct).
import { DEFAULT_BODY_LIMIT, type JsonPath } from '../../../shared/receiver'

/** A field's value as written in the body. */
export type JsonScalar =
  | { type: 'string'; bytes: Buffer }
  | { type: 'number' | 'boolean'; text: string }
  | { type: 'null' }
  | { type: 'container' }

export interface InspectLimits {
  /** Stop (not inspected) once this many bytes were walked through. */
  maxBytes: number
  /** Stop (not inspected) at this nesting depth. */
  maxDepth: number
  /** Bytes walked between two turns given back to the event loop. */
  sliceBytes: number
}

// A body of the default limit is examined whole: a provider's largest payload keeps its dedupe key
// and event type wherever they lie. The walk holds nothing per byte, so the cap bounds time only.
export const DEFAULT_INSPECT_LIMITS: InspectLimits = { maxBytes: DEFAULT_BODY_LIMIT, maxDepth: 128, sliceBytes: 64 * 1024 }

/** The body could not be inspected within the limits: why, in words for the request's record. */
export class NotInspected extends Error {
  override readonly name = 'NotInspected'
}

/** The value at the path; undefined when absent (or the body is not JSON / malformed before it). */
export type FieldRead = JsonScalar | undefined

const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

class Malformed extends Error {}

class Walker {
  pos = 0
  private sliceEnd: number
  constructor(
    readonly body: Buffer,
    private readonly limits: InspectLimits,
    private readonly pause: () => Promise<void>,
  ) {
    this.sliceEnd = limits.sliceBytes
  }

  /** Called at safe points: past the byte cap → NotInspected; past a slice → yield a turn. */
  async checkpoint(): Promise<void> {
    if (this.pos > this.limits.maxBytes) throw new NotInspected(`the field was not within the first ${this.limits.maxBytes} bytes examined`)
    if (this.pos >= this.sliceEnd) {
      this.sliceEnd = this.pos + this.limits.sliceBytes
      await this.pause()
    }
  }

  depthCheck(depth: number): void {
    if (depth > this.limits.maxDepth) throw new NotInspected(`the body nests deeper than ${this.limits.maxDepth} levels`)
  }

  skipSpace(): number | undefined {
    const { body } = this
    while (isSpace(body[this.pos])) this.pos++
    return body[this.pos]
  }

  /** pos at an opening quote → pos after the closing one; returns the end of the content. */
  skipString(): number {
    const { body } = this
    let at = this.pos + 1
    for (;;) {
      const close = body.indexOf(QUOTE, at)
      if (close === -1) throw new Malformed()
      let slashes = 0
      while (body[close - 1 - slashes] === BACKSLASH) slashes++
      if (slashes % 2 === 0) {
        this.pos = close + 1
        return close
      }
      at = close + 1
    }
  }

  /** pos at an opening quote → the string's bytes, escapes decoded (lone surrogates kept as WTF-8). */
  readString(): Buffer {
    const start = this.pos + 1
    const end = this.skipString()
    const raw = this.body.subarray(start, end)
    return raw.includes(BACKSLASH) ? unescape(raw) : raw
  }

  /** Skips one value of any kind, counting brackets (no stack: depth is a number). */
  async skipValue(depth: number): Promise<void> {
    const { body } = this
    const first = this.skipSpace()
    if (first === QUOTE) {
      this.skipString()
      return
    }
    if (first !== 0x7b && first !== 0x5b) {
      this.readToken()
      return
    }
    let level = 0
    for (;;) {
      const end = Math.min(body.length, this.sliceEnd)
      while (this.pos < end) {
        const c = body[this.pos] as number
        if (c === QUOTE) {
          this.skipString()
          continue
        }
        this.pos++
        if (c === 0x7b || c === 0x5b) {
          level++
          this.depthCheck(depth + level)
        } else if (c === 0x7d || c === 0x5d) {
          level--
          if (level === 0) return
        }
      }
      if (this.pos >= body.length) throw new Malformed()
      await this.checkpoint()
    }
  }

  /** A number, true, false or null: its source text. */
  readToken(): string {
    const { body } = this
    const start = this.pos
    while (this.pos < body.length) {
      const c = body[this.pos] as number
      if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break
      this.pos++
    }
    return body.toString('latin1', start, this.pos)
  }

  scalar(): JsonScalar {
    const c = this.skipSpace()
    if (c === QUOTE) return { type: 'string', bytes: this.readString() }
    if (c === 0x7b || c === 0x5b) return { type: 'container' }
    const text = this.readToken()
    if (text === 'true' || text === 'false') return { type: 'boolean', text }
    if (text === 'null') return { type: 'null' }
    if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return { type: 'number', text }
    throw new Malformed()
  }

  /** pos inside an object after `{` (or after a member's `,`): finds `name`; false when absent. */
  async member(name: Buffer, depth: number): Promise<boolean> {
    for (;;) {
      const c = this.skipSpace()
      if (c === 0x7d) return false
      if (c !== QUOTE) throw new Malformed()
      const key = this.readString()
      if (this.skipSpace() !== 0x3a) throw new Malformed()
      this.pos++
      if (key.equals(name)) return true
      await this.skipValue(depth)
      await this.checkpoint()
      const next = this.skipSpace()
      if (next === 0x2c) this.pos++
      else if (next === 0x7d) return false
      else throw new Malformed()
    }
  }

  /** pos inside an array after `[`: moves to element `index`; false when shorter. */
  async element(index: number, depth: number): Promise<boolean> {
    if (this.skipSpace() === 0x5d) return false
    for (let i = 0; i < index; i++) {
      await this.skipValue(depth)
      await this.checkpoint()
      const next = this.skipSpace()
      if (next !== 0x2c) {
        if (next === 0x5d) return false
        throw new Malformed()
      }
      this.pos++
    }
    return true
  }
}

/** `\n`, `\"`, `\u00e9`, surrogate pairs → bytes (never longer than the escaped text). Malformed escapes throw. */
function unescape(raw: Buffer): Buffer {
  const out = Buffer.allocUnsafe(raw.length)
  let at = 0
  const push = (cp: number) => {
    if (cp < 0x80) out[at++] = cp
    else if (cp < 0x800) {
      out[at++] = 0xc0 | (cp >> 6)
      out[at++] = 0x80 | (cp & 0x3f)
    } else if (cp < 0x10000) {
      out[at++] = 0xe0 | (cp >> 12)
      out[at++] = 0x80 | ((cp >> 6) & 0x3f)
      out[at++] = 0x80 | (cp & 0x3f)
    } else {
      out[at++] = 0xf0 | (cp >> 18)
      out[at++] = 0x80 | ((cp >> 12) & 0x3f)
      out[at++] = 0x80 | ((cp >> 6) & 0x3f)
      out[at++] = 0x80 | (cp & 0x3f)
    }
  }
  const hex = (from: number) => {
    const text = raw.toString('latin1', from, from + 4)
    if (!/^[0-9a-fA-F]{4}$/.test(text)) throw new Malformed()
    return parseInt(text, 16)
  }
  const simple: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 }
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as number
    if (c !== BACKSLASH) {
      out[at++] = c
      continue
    }
    const e = raw[++i] as number
    if (e === 0x75) {
      let cp = hex(i + 1)
      i += 4
      if (cp >= 0xd800 && cp < 0xdc00 && raw[i + 1] === BACKSLASH && raw[i + 2] === 0x75) {
        const low = hex(i + 3)
        if (low >= 0xdc00 && low < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00)
          i += 6
        }
      }
      push(cp)
    } else if (simple[e] !== undefined) out[at++] = simple[e]
    else throw new Malformed()
  }
  return out.subarray(0, at)
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The value at `path` in a JSON body. Throws NotInspected past the limits; a body that is not a
 * JSON object or array, or is malformed before the field, reads as absent.
 */
export async function readJsonField(body: Buffer, path: JsonPath, limits: InspectLimits = DEFAULT_INSPECT_LIMITS, pause: () => Promise<void> = yieldTurn): Promise<FieldRead> {
  const walker = new Walker(body, limits, pause)
  try {
    // Leading whitespace counts as examined bytes too (a body of 10 MB of spaces).
    while (isSpace(body[walker.pos])) {
      walker.pos++
      if (walker.pos % limits.sliceBytes === 0) await walker.checkpoint()
    }
    let depth = 0
    for (const part of path) {
      const c = walker.skipSpace()
      if (typeof part === 'number') {
        if (c !== 0x5b) return undefined
        walker.pos++
        walker.depthCheck(++depth)
        if (!(await walker.element(part, depth))) return undefined
      } else {
        if (c !== 0x7b) return undefined
        walker.pos++
        walker.depthCheck(++depth)
        if (!(await walker.member(Buffer.from(part, 'utf8'), depth))) return undefined
      }
      await walker.checkpoint()
    }
    if (depth === 0) return undefined
    return walker.scalar()
  } catch (error) {
    if (error instanceof Malformed) return undefined
    throw error
  }
}

/** A stable name for a path (map key). */
export const pathId = (path: JsonPath): string => JSON.stringify(path)
