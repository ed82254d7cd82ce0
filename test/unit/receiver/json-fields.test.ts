// The bounded field reader: the same answers as JSON.parse + readJsonPath on ordinary bodies,
// exact numbers and bytes where JSON.parse loses them, and "not inspected" past its caps.
import { describe, expect, it } from 'vitest'
import { readJsonPath, parseJsonPath } from '../../../shared/receiver'
import { boundKey, compileKeyExtractor, KEY_MAX_BYTES } from '../../../electron/engine/receiver/dedupe'
import { readBodyDocument } from '../../../electron/engine/receiver/json-document'
import { NotInspected, readJsonField, type InspectLimits } from '../../../electron/engine/receiver/json-fields'

const LIMITS: InspectLimits = { maxBytes: 1024 * 1024, maxDepth: 32, sliceBytes: 4096 }
const read = (text: string | Buffer, path: string, limits = LIMITS) => readJsonField(Buffer.isBuffer(text) ? text : Buffer.from(text), parseJsonPath(path), limits)
const text = async (body: string | Buffer, path: string) => {
  const value = await read(body, path)
  if (value === undefined) return undefined
  if (value.type === 'string') return value.bytes.toString('utf8')
  if (value.type === 'number' || value.type === 'boolean') return value.text
  return value.type
}

describe('readJsonField', () => {
  it('agrees with JSON.parse on ordinary bodies', async () => {
    const body = { event: 'message.sent', message: { id: 'm-7', tags: ['a', { deep: [1, 2, { x: 'y' }] }] }, 'odd name': true, n: null, esc: 'q"\\/\n\u00e9\ud83d\ude00' }
    const raw = JSON.stringify(body, null, 2)
    for (const path of ['event', 'message.id', 'message.tags[0]', 'message.tags[1].deep[2].x', '["odd name"]', 'esc']) {
      expect(await text(raw, path)).toBe(String(readJsonPath(body, parseJsonPath(path))))
    }
    expect(await text(raw, 'n')).toBe('null')
    expect(await text(raw, 'message')).toBe('container')
    expect(await text(raw, 'missing')).toBeUndefined()
    expect(await text(raw, 'message.tags[5]')).toBeUndefined()
    expect(await text(raw, 'event.length')).toBeUndefined()
  })

  it('keeps a 64-bit id as written (JSON.parse rounds it)', async () => {
    expect(await text('{"event_id": 820982911946154508}', 'event_id')).toBe('820982911946154508')
    expect(String(JSON.parse('{"a":820982911946154508}').a)).toBe('820982911946154500')
  })

  it('keeps invalid UTF-8 as its bytes', async () => {
    const a = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])
    const b = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xe2, 0x28]), Buffer.from('"}')])
    const va = await read(a, 'id')
    const vb = await read(b, 'id')
    expect(va?.type === 'string' && vb?.type === 'string' && !va.bytes.equals(vb.bytes)).toBe(true)
  })

  it('reads a non-JSON or malformed body as absent', async () => {
    expect(await text('event_id=1', 'event_id')).toBeUndefined()
    expect(await text('{"a": ', 'a')).toBeUndefined()
    expect(await text('{"a": "unterminated', 'a')).toBeUndefined()
    expect(await text('{"a": bogus}', 'a')).toBeUndefined()
  })

  it('stops at the depth cap: not inspected, with the reason', async () => {
    const bomb = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)},"event_id":"x"}`
    await expect(read(bomb, 'event_id')).rejects.toThrow(NotInspected)
    await expect(read(bomb, 'event_id')).rejects.toThrow(/deeper than 32 levels/)
  })

  it('stops at the byte cap, giving the event loop back between slices', async () => {
    const wide = `{"a":[${Array.from({ length: 100_000 }, () => '[]').join(',')}],"event_id":"x"}`
    let turns = 0
    await expect(readJsonField(Buffer.from(wide), ['event_id'], { ...LIMITS, maxBytes: 64 * 1024 }, async () => void turns++)).rejects.toThrow(/first 65536 bytes/)
    expect(turns).toBeGreaterThan(5)
    expect(await readJsonField(Buffer.from(wide), ['event_id'], LIMITS, async () => void turns++)).toEqual({ type: 'string', bytes: Buffer.from('x') })
  })
})

describe('bounded dedupe keys', () => {
  it('keeps a short UTF-8 key as itself, a long or invalid one as a marked digest', () => {
    expect(boundKey('e-1')).toEqual({ key: 'e-1', mark: null })
    const long = boundKey('k'.repeat(10 * 1024 * 1024))
    expect(long.key).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(long.mark).toEqual({ reason: 'too_long', bytes: 10 * 1024 * 1024 })
    expect(boundKey('k'.repeat(KEY_MAX_BYTES)).mark).toBeNull()
    expect(boundKey('k'.repeat(KEY_MAX_BYTES) + 'x').key).not.toBe(boundKey('k'.repeat(KEY_MAX_BYTES) + 'y').key)
  })

  it('reads keys from the sparse document: exact numbers, distinct invalid bytes', async () => {
    const key = compileKeyExtractor({ type: 'json-path', path: 'event_id' })
    const of = async (body: Buffer) => {
      const doc = await readBodyDocument(body, key.paths, LIMITS)
      const raw = key({}, () => doc.json)
      return raw === null ? null : boundKey(raw)
    }
    expect(await of(Buffer.from('{"event_id":820982911946154508}'))).toEqual({ key: '820982911946154508', mark: null })
    const a = await of(Buffer.concat([Buffer.from('{"event_id":"'), Buffer.from([0xff, 0x01]), Buffer.from('"}')]))
    const b = await of(Buffer.concat([Buffer.from('{"event_id":"'), Buffer.from([0xfe, 0x01]), Buffer.from('"}')]))
    expect(a?.mark?.reason).toBe('not_utf8')
    expect(a?.key).not.toBe(b?.key)
    const template = compileKeyExtractor({ type: 'template', template: '${event}_${message.id}' })
    const doc = await readBodyDocument(Buffer.from('{"message":{"id":12345678901234567890},"event":"message.sent"}'), template.paths, LIMITS)
    expect(template({}, () => doc.json)).toBe('message.sent_12345678901234567890')
  })
})
