import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CaseFile } from '../../../shared/contract'
import { runCli } from '../../support/run-cli'
import { createFixture, newEngine, RESIGN_SECRET, SECRET, type Fixture } from '../exports/support'

// `hookloop export` and `hookloop replay` as real processes over a real data folder.

let fixture: Fixture
beforeAll(async () => {
  fixture = await createFixture()
})
afterAll(async () => {
  await fixture?.close()
})

describe('hookloop export / replay', () => {
  it('exports a case file (redacted), and replays it re-signed against an endpoint: exit 0, same outcomes', async () => {
    const out = join(fixture.dir, 'exports', 'case.json')
    const ids = fixture.requestIds.join(',')
    const exported = await runCli(['export', '--data', fixture.dir, '--format', 'case', '--requests', ids, '--deliveries', String(fixture.deliveryIds[0]), '--out', out])
    expect(exported.stderr).toBe('')
    expect(exported.code).toBe(0)
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain(SECRET)
    expect((JSON.parse(text) as CaseFile).requests).toHaveLength(3)

    const har = await runCli(['export', '--data', fixture.dir, '--format', 'har', '--requests', `${fixture.requestIds[0]}-${fixture.requestIds[2]}`])
    expect(har.code).toBe(0)
    expect(JSON.parse(har.stdout).log.entries).toHaveLength(3)

    const target = await newEngine()
    try {
      const file = JSON.parse(text) as CaseFile
      await target.engine.putEndpoint({ ...(file.setup.endpoints[0] as { slug: string }), secrets: [RESIGN_SECRET] } as never)
      const replayed = await runCli(['replay', out, '--to', target.engine.receiver.endpointUrl('shop'), '--scheme', 'standard-webhooks', '--secret', RESIGN_SECRET])
      expect(replayed.stderr).toBe('')
      expect(replayed.code).toBe(0)
      expect(replayed.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^ok {3}request \d+: http_200 \(same\)$/),
        expect.stringMatching(/^ok {3}request \d+: http_422 \(same\)$/),
        expect.stringMatching(/^ok {3}request \d+: http_200 \(same\)$/),
        expect.stringMatching(/^ok {3}delivery \d+ attempt 1: http_200 \(same\)$/),
      ])
      // Against an endpoint that answers otherwise: exit 1, the difference named.
      await target.engine.putEndpoint({ slug: 'down', secrets: [], rules: [{ preset: 'always-500' }] })
      const differs = await runCli(['replay', out, '--to', target.engine.receiver.endpointUrl('down'), '--json'])
      expect(differs.code).toBe(1)
      const report = JSON.parse(differs.stdout) as { ok: boolean; results: unknown[] }
      expect(report.ok).toBe(false)
      expect(report.results[0]).toMatchObject({ outcome: 'http_500', original_outcome: 'http_200', same: false })
    } finally {
      await target.close()
    }
  })

  it('bad usage and broken files: exit 2 with one line naming the problem', async () => {
    const broken = join(fixture.dir, 'broken.har')
    writeFileSync(broken, '{"log": {"version": "1.2", "entries": []}}')
    const notJson = join(fixture.dir, 'not.json')
    writeFileSync(notJson, 'HTTP/1.1 200 OK')
    const cases: Array<[string[], RegExp]> = [
      [['replay', broken, '--to', 'http://127.0.0.1:9/'], /broken\.har: the HAR file has no entries/],
      [['replay', notJson, '--to', 'http://127.0.0.1:9/'], /not\.json: not JSON/],
      [['replay', broken], /--to must be an http/],
      [['replay', broken, '--to', 'http://127.0.0.1:9/', '--scheme', 'stripe'], /--scheme and --secret go together/],
      [['replay', join(fixture.dir, 'missing.har'), '--to', 'http://127.0.0.1:9/'], /cannot read .*missing\.har \(ENOENT\)/],
      [['export', '--data', fixture.dir, '--format', 'xml', '--requests', '1'], /--format must be one of har, curl, case/],
      [['export', '--data', fixture.dir, '--format', 'har'], /select something/],
      [['export', '--data', fixture.dir, '--format', 'har', '--requests', '999999'], /no captured request with id 999999/],
      [['export', '--data', fixture.dir, '--format', 'har', '--requests', 'a,b'], /"a" is not one/],
    ]
    for (const [args, message] of cases) {
      const result = await runCli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(result.stderr).toMatch(message)
    }
  })
})
