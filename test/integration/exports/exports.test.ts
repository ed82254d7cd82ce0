import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import Ajv from 'ajv'
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSelection, parseImportFile, replayItems } from '../../../electron/engine/exports'
import { storeOfDatabase } from '../../../electron/engine/store'
import { REDACTED, type CaseFile, type Har } from '../../../shared/contract'
import { endpointSchema } from '../../../shared/scenario'
import { BEARER, createFixture, newEngine, RESIGN_SECRET, SECRET, SUBSCRIPTION_SECRET, type Fixture } from './support'

// Real captures from a real engine → HAR (validated against the HAR 1.2 JSON schema), cURL (run
// by bash and curl against the receiver: the same bytes arrive) and case files; redaction by
// default; replay of an import against a fresh engine, re-signed, gives the same outcome.

let fixture: Fixture
beforeAll(async () => {
  fixture = await createFixture()
})
afterAll(async () => {
  await fixture?.close()
})

function exportAs(format: 'har' | 'curl' | 'case', keepSecrets = false): Promise<string> {
  return exportSelection(storeOfDatabase(fixture.engine.db), { format, requestIds: fixture.requestIds, deliveryIds: fixture.deliveryIds, keepSecrets, now: Date.now(), version: '0.1.0' })
}

function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false })
  ajv.addMetaSchema(draft6)
  // har-schema is CommonJS without types: one JSON Schema (draft-06) per HAR object.
  const schemas = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>
  for (const schema of Object.values(schemas)) ajv.addSchema(schema)
  return ajv.getSchema('har.json#')!
}

describe('exports', () => {
  it('HAR 1.2: valid against the HAR schema, every request and attempt, binary bodies as base64', async () => {
    expect(fixture.requestIds).toHaveLength(3)
    const har = JSON.parse(await exportAs('har')) as Har
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
    expect(har.log.entries).toHaveLength(4)
    const [paid, refused, binary, attempt] = har.log.entries
    expect(paid!.response.status).toBe(200)
    expect(refused!.response).toMatchObject({ status: 422, content: { text: 'refused' } })
    expect(paid!.request.postData?.text).toBe(fixture.bodies[0]!.toString('utf8'))
    expect(binary!.request.postData).toMatchObject({ encoding: 'base64', text: fixture.bodies[2]!.toString('base64') })
    expect(attempt!._hookloop).toMatchObject({ source: 'attempt', attempt: 1, outcome: 'http_200' })
    expect(paid!._hookloop).toMatchObject({ source: 'request', endpoint: 'shop', verify: { valid: true, reason: 'ok' } })
    expect(new Date(paid!.startedDateTime).getTime()).toBeGreaterThan(0)
    // The same with secrets kept is valid too.
    expect(validate(JSON.parse(await exportAs('har', true)))).toBe(true)
  })

  it('redacts secrets and signatures everywhere, in every format, unless keepSecrets', async () => {
    const secrets = [SECRET, SUBSCRIPTION_SECRET, BEARER, 'session=abc123def456', ...fixture.signatures]
    for (const format of ['har', 'curl', 'case'] as const) {
      const text = await exportAs(format)
      for (const secret of secrets) expect(text.includes(secret), `${format} leaks ${secret.slice(0, 12)}…`).toBe(false)
      // Nor a single signature of a multi-signature header, nor the base64 part alone.
      for (const signature of fixture.signatures) expect(text.includes(signature.split(',')[1]!)).toBe(false)
      expect(text).toContain(REDACTED)
      const kept = await exportAs(format, true)
      expect(kept).toContain(fixture.signatures[0]!)
      expect(kept).toContain(BEARER)
    }
    const kept = JSON.parse(await exportAs('case', true)) as CaseFile
    expect(kept.setup.endpoints[0]!.secrets).toEqual([SECRET])
    expect(kept.redacted).toBe(false)
  })

  it('case file: the setup reads as scenario endpoints, requests keep their outcome and verify result', async () => {
    const file = JSON.parse(await exportAs('case')) as CaseFile
    expect(file).toMatchObject({ hookloop_case: 1, redacted: true })
    expect(endpointSchema.safeParse({ ...file.setup.endpoints[0], secrets: [SECRET] }).success).toBe(true)
    expect(file.setup.global_rules).toEqual([expect.objectContaining({ name: 'teapot on demand' })])
    expect(file.setup.subscriptions[0]).toMatchObject({ endpoint: 'shop', scheme: 'standard-webhooks', secrets: [REDACTED, REDACTED] })
    expect(file.requests.map((r) => r.outcome)).toEqual(['http_200', 'http_422', 'http_200'])
    expect(file.requests.map((r) => r.verify?.reason)).toEqual(['ok', 'ok', 'ok'])
    expect(file.requests[2]!.body).toEqual({ base64: fixture.bodies[2]!.toString('base64') })
    expect(file.deliveries[0]!.attempts[0]).toMatchObject({ n: 1, outcome: 'http_200', decision: 'succeeded' })
  })

  it('cURL: bash runs the script and the receiver gets the same bytes', async () => {
    const before = fixture.engine.receiver.requests.count()
    const script = await exportAs('curl', true)
    expect(script).toContain("--data-binary $'")
    expect(script).toContain('| base64 -d |') // the body with NUL bytes
    const file = join(fixture.dir, 'replay.sh')
    writeFileSync(file, script)
    // Asynchronously: the receiver answering curl lives in this process.
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-e', file], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      child.on('close', (code) => resolve({ code, stderr }))
    })
    expect(run.code, run.stderr).toBe(0)
    await fixture.engine.quiesce()
    const again = fixture.engine.receiver.requests.list({ limit: 100 }).filter((r) => r.id > before && r.path === '/h/shop').sort((a, b) => a.id - b.id)
    // 3 captured requests and the delivery's attempt, resent in time order.
    expect(again).toHaveLength(4)
    expect(Buffer.from(again[0]!.body).equals(fixture.bodies[0]!)).toBe(true)
    expect(Buffer.from(again[2]!.body).equals(fixture.bodies[2]!)).toBe(true)
    expect(again.map((r) => r.verify?.reason)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(again.map((r) => r.response.status)).toEqual([200, 422, 200, 200])
  })

  it('round trip: export → import → replay on a fresh endpoint, re-signed, gives the same verify result and rule answers', async () => {
    const target = await newEngine()
    try {
      const file = JSON.parse(await exportAs('case')) as CaseFile
      // The case's own setup, with the support engineer's secret in place of the redacted one.
      await target.engine.putEndpoint({ ...(file.setup.endpoints[0] as { slug: string }), secrets: [RESIGN_SECRET] } as never)
      for (const format of ['case', 'har'] as const) {
        const { items } = parseImportFile(await exportAs(format))
        const results = await replayItems(items, { to: target.engine.receiver.endpointUrl('shop'), resign: { scheme: 'standard-webhooks', secret: RESIGN_SECRET } })
        expect(results.map((r) => r.outcome), format).toEqual(['http_200', 'http_422', 'http_200', 'http_200'])
        expect(results.every((r) => r.same === true)).toBe(true)
      }
      await target.engine.quiesce()
      const replayed = target.engine.receiver.requests.list({ limit: 100 }).sort((a, b) => a.id - b.id)
      expect(replayed.map((r) => r.verify?.reason)).toEqual(Array(8).fill('ok'))
      expect(Buffer.from(replayed[2]!.body).equals(fixture.bodies[2]!)).toBe(true)
      // The id header is kept: the second replay is recognised as the same messages.
      expect(replayed.slice(4).map((r) => r.duplicateNumber)).toEqual([2, 2, 2, 2])
      // Without re-signing, redacted signatures are dropped, and verification fails as it should.
      const { items } = parseImportFile(await exportAs('case'))
      const unsigned = await replayItems(items.slice(0, 1), { to: target.engine.receiver.endpointUrl('shop') })
      expect(unsigned[0]!.dropped_redacted).toEqual(expect.arrayContaining(['webhook-signature', 'authorization']))
      await target.engine.quiesce()
      expect(target.engine.receiver.requests.list({ limit: 1 })[0]!.verify?.valid).toBe(false)
    } finally {
      await target.close()
    }
  })
})

describe('imports of broken files', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', '{"log": ', /^not JSON: /],
    ['not an object', '[1, 2]', /top level must be a JSON object/],
    ['neither', '{"foo": 1}', /neither a HAR 1.2 file \(no "log"\) nor a Hookloop case file/],
    ['HAR 1.1', '{"log": {"version": "1.1", "entries": []}}', /not HAR 1.2: log.version is "1.1"/],
    ['no entries', '{"log": {"version": "1.2", "entries": []}}', /has no entries/],
    ['entries missing', '{"log": {"version": "1.2"}}', /log.entries is missing/],
    ['no method', '{"log": {"version": "1.2", "entries": [{"request": {"url": "http://x/"}}]}}', /log.entries\[0\].request.method is missing/],
    [
      'bad base64',
      '{"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "url": "http://x/", "headers": [], "postData": {"mimeType": "x", "text": "%%%", "encoding": "base64"}}}]}}',
      /log.entries\[0\].request.postData: text is not valid base64/,
    ],
    ['bad header', '{"log": {"version": "1.2", "entries": [{"request": {"method": "POST", "headers": [{"name": 1}]}}]}}', /request.headers\[0\] is not a header/],
    ['case version', '{"hookloop_case": 7}', /not a Hookloop case file of version 1/],
    ['case empty', '{"hookloop_case": 1, "requests": [], "deliveries": []}', /no requests or delivery attempts/],
    ['case body', '{"hookloop_case": 1, "requests": [{"method": "POST", "headers": [], "body": "raw"}]}', /requests\[0\].body must be/],
    ['case base64', '{"hookloop_case": 1, "requests": [{"method": "POST", "headers": [], "body": {"base64": "abc"}}]}', /requests\[0\].body: text is not valid base64/],
  ]
  for (const [name, text, message] of cases) {
    it(name, () => {
      expect(() => parseImportFile(text)).toThrow(message)
    })
  }
})
