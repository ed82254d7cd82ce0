import { describe, expect, it } from 'vitest'
import { DefinitionError } from '../../../shared/receiver'
import { DEDUPE_PRESETS, parseEndpoint, parseJsonPath, parseListenConfig, parseTemplate, readJsonPath } from '../../../shared/receiver'
import { compileKeyExtractor } from '../../../electron/engine/receiver/dedupe'
import { seededRandom } from '../../../electron/engine/receiver/rule-engine'
import { defaultDataDir } from '../../../electron/engine/data-dir'

describe('JSON paths and templates', () => {
  it('parses dotted paths with indexes and quoted names', () => {
    expect(parseJsonPath('message.id')).toEqual(['message', 'id'])
    expect(parseJsonPath('data[0].items[12]["odd name"]')).toEqual(['data', 0, 'items', 12, 'odd name'])
    expect(() => parseJsonPath('a..b')).toThrow(DefinitionError)
    expect(() => parseJsonPath('')).toThrow(DefinitionError)
  })
  it('reads only own fields (no prototype walk)', () => {
    expect(readJsonPath({ a: [{ b: 1 }] }, ['a', 0, 'b'])).toBe(1)
    expect(readJsonPath({ a: {} }, ['a', 'constructor'])).toBeUndefined()
    expect(readJsonPath({ a: 'text' }, ['a', 'length'])).toBeUndefined()
  })
  it('needs at least one placeholder in a template', () => {
    expect(parseTemplate('${event}_${message.id}')).toEqual([['event'], '_', ['message', 'id']])
    expect(() => parseTemplate('constant')).toThrow(/no \$\{field\} placeholder/)
  })
})

describe('dedupe key extraction', () => {
  const json = (value: unknown) => () => value
  it('reads each seed provider key', () => {
    expect(compileKeyExtractor(DEDUPE_PRESETS.pandoktorek)({ 'x-pandoktorek-event-id': ' 3f2a ' }, json(undefined))).toBe('3f2a')
    expect(compileKeyExtractor(DEDUPE_PRESETS['pandoktorek-body'])({}, json({ event_id: 'e-1' }))).toBe('e-1')
    expect(compileKeyExtractor(DEDUPE_PRESETS.csku)({}, json({ event: 'message.sent', message: { id: 42 } }))).toBe('message.sent_42')
  })
  it('gives no key when a part is missing, empty or not a scalar', () => {
    expect(compileKeyExtractor(DEDUPE_PRESETS.csku)({}, json({ event: 'message.sent' }))).toBeNull()
    expect(compileKeyExtractor(DEDUPE_PRESETS.csku)({}, json({ event: 'x', message: { id: { nested: 1 } } }))).toBeNull()
    expect(compileKeyExtractor(DEDUPE_PRESETS['pandoktorek-body'])({}, json({ event_id: '' }))).toBeNull()
    expect(compileKeyExtractor(DEDUPE_PRESETS.pandoktorek)({}, json(undefined))).toBeNull()
  })
})

describe('endpoints and the listen config', () => {
  it('fills defaults and resolves dedupe presets', () => {
    const e = parseEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_x'], dedupe: 'standard-webhooks' })
    expect(e).toMatchObject({ slug: 'shop', name: 'shop', dedupe: { type: 'header', name: 'webhook-id' }, dedupeWindowMs: 86_400_000, bodyLimit: 32 * 1024 * 1024 })
  })
  it('points at the field at fault inside the file', () => {
    const bad = (input: unknown) => {
      try {
        parseListenConfig(input)
      } catch (error) {
        return (error as DefinitionError).message
      }
      return 'no error'
    }
    expect(bad({ endpoints: [{ slug: 'Bad Slug' }] })).toMatch(/^endpoints\[0\]\.slug: a slug is/)
    expect(bad({ endpoints: [{ slug: 'a', scheme: 'rot13' }] })).toMatch(/^endpoints\[0\]\.scheme: /)
    expect(bad({ endpoints: [{ slug: 'a', dedupe: { type: 'template', template: 'nothing' } }] })).toMatch(/^endpoints\[0\]\.dedupe/)
    expect(bad({ endpoints: [{ slug: 'a' }, { slug: 'a' }] })).toBe('endpoints[1].slug: the slug "a" is used twice')
    expect(bad({ endpoints: [{ slug: 'a', rules: [{ preset: 'slow' }, { steps: [] }] }] })).toMatch(/^endpoints\[0\]\.rules\[1\]\.steps/)
    expect(bad({ port: 70000 })).toMatch(/^port: /)
    expect(bad({ endpoints: [{ slug: 'a', scheme: 'custom' }] })).toMatch(/^endpoints\[0\]\.custom: the custom scheme needs/)
    expect(bad({ endpoint: [] })).toBe('unknown field "endpoint"')
  })
  it('parses a complete config', () => {
    const config = parseListenConfig({
      port: 7780,
      request_deadline_ms: 20_000,
      endpoints: [{ slug: 'a', dedupe: 'csku', rules: [{ preset: 'fail-first', n: 2 }, { matchers: [{ type: 'method', method: 'GET' }], steps: [{ type: 'reply', status: 405 }] }] }],
    })
    expect(config.port).toBe(7780)
    expect(config.requestDeadlineMs).toBe(20_000)
    expect(config.endpoints[0]?.rules).toHaveLength(2)
  })
})

describe('seeded probability and the data folder', () => {
  it('the same seed gives the same draws', () => {
    const a = seededRandom(42)
    const b = seededRandom(42)
    const c = seededRandom(43)
    const drawsA = Array.from({ length: 20 }, a)
    expect(Array.from({ length: 20 }, b)).toEqual(drawsA)
    expect(Array.from({ length: 20 }, c)).not.toEqual(drawsA)
    expect(drawsA.every((x) => x >= 0 && x < 1)).toBe(true)
  })
  it('uses the platform user data folder', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/data/xdg' }, 'linux')).toBe('/data/xdg/hookloop')
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative' }, 'linux')).toMatch(/\.local\/share\/hookloop$/)
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Hookloop$/)
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Hookloop$/)
  })
})
