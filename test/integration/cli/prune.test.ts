// `hookloop prune` as a real process over a data folder a real engine filled: by endpoint, by age,
// by size, applying and saving the folder's retention; exit 0 / 1 / 2.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import type { PruneResult } from '../../../shared/contract'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

let temp: ReturnType<typeof makeTempDir>

async function fill(dir: string): Promise<void> {
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  await engine.putEndpoint({ slug: 'a', secrets: ['whsec_kept-sealed-by-the-engine'] })
  await engine.putEndpoint({ slug: 'b' })
  for (const [slug, n] of [['a', 4], ['b', 3]] as const) {
    for (let i = 0; i < n; i++) await (await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(200_000), i }) })).arrayBuffer()
  }
  await engine.close()
}

beforeAll(() => {
  temp = makeTempDir('hookloop-prune-')
})
afterAll(() => temp.cleanup())

describe('hookloop prune', () => {
  it('clears one endpoint, then prunes by size, then by age, and prints JSON', async () => {
    const dir = join(temp.dir, 'one')
    await fill(dir)
    const b = await runCli(['prune', '--data', dir, '--endpoint', 'b', '--all', '--json'])
    expect(b.stderr).toBe('')
    expect(b.code).toBe(0)
    const first = JSON.parse(b.stdout) as PruneResult
    expect(first.deleted).toBe(3)
    expect(first.size.requests).toBe(4)

    const sized = await runCli(['prune', '--data', dir, '--max-mb', '0', '--json'])
    expect(sized.code).toBe(0)
    const second = JSON.parse(sized.stdout) as PruneResult
    expect(second.size.requests).toBe(0)
    expect(second.reclaimedPages).toBeGreaterThan(0)

    const nothing = await runCli(['prune', '--data', dir, '--older-than', '1h'])
    expect(nothing.code).toBe(0)
    expect(nothing.stdout).toMatch(/^Nothing to prune\. Store: .* 0 requests kept\.\n$/)
  })

  it('applies and saves the folder retention; the app reads it back', async () => {
    const dir = join(temp.dir, 'two')
    await fill(dir)
    const saved = await runCli(['prune', '--data', dir, '--older-than', '7d', '--max-mb', '1', '--save'])
    expect(saved.code).toBe(0)
    expect(saved.stdout).toMatch(/^Pruned \d+ requests? .* in \d+ batch(es)?\./)
    const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
    try {
      expect(await engine.retention.settings()).toEqual({ days: 7, maxMb: 1 })
      expect((await engine.retention.size()).usedBytes).toBeLessThanOrEqual(1_000_000)
      // The endpoint's secret was not touched by a prune that never reads one.
      expect(engine.receiver.endpoints.list().find((e) => e.slug === 'a')!.secrets).toEqual(['whsec_kept-sealed-by-the-engine'])
    } finally {
      await engine.close()
    }
    const applied = await runCli(['prune', '--data', dir, '--json'])
    expect(applied.code).toBe(0)
    expect((JSON.parse(applied.stdout) as PruneResult).size.retention).toEqual({ days: 7, maxMb: 1 })
  })

  it.each([
    [['--older-than', '3x'], /--older-than takes an age like 30d/],
    [['--all', '--max-mb', '5'], /--all deletes everything/],
    [['--endpoint', 'nope', '--all'], /no endpoint "nope"/],
    [['--endpoint', 'a'], /--endpoint needs --older-than or --all/],
    [['--save', '--older-than', '12h'], /--save keeps whole days/],
    [['--max-mb', 'lots'], /--max-mb takes a whole number/],
  ])('bad usage %j exits 2 naming the problem', async (args, message) => {
    const dir = join(temp.dir, 'usage')
    await fill(dir)
    const result = await runCli(['prune', '--data', dir, ...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })

  it('a folder without data is bad usage (2); a store that cannot be opened is a failure (1)', async () => {
    const empty = await runCli(['prune', '--data', join(temp.dir, 'none'), '--all'])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('no Hookloop data in')
    const broken = join(temp.dir, 'broken')
    mkdirSync(broken)
    writeFileSync(join(broken, 'hookloop.db'), 'not a database at all, just text '.repeat(200))
    const failed = await runCli(['prune', '--data', broken, '--all'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/is not a Hookloop database/)
  })
})
