// npm run bench:tokens — what the check of an API token costs a served Hookloop, per command or
// request (engine/accounts/tokens.ts): the Authorization header read, the secret hashed, the
// verdict taken from this process's cache (cached), or read from the store when the cache's second
// is up (uncached: the clock moves TOKEN_CACHE_MS on before each check, so every one reads; one
// check in 60 also writes the last use, as a token used all the time does). On a data folder (the
// store `serve` runs on) and on PostgreSQL (embedded, on loopback). Among 1 000 tokens. One JSON
// line; the goal is a cached p99 under 50 µs.
import { cpus, loadavg, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { bearerOf, createTokens, TOKEN_CACHE_MS } from '../../electron/engine/accounts'
import { createSqliteEngine, openDatabase, openStore, parseStoreLocation, type SqlEngine } from '../../electron/engine/store'
import { startTestPostgres } from '../support/postgres'

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const CACHED = arg('cached', 200_000)
const UNCACHED = arg('uncached', 20_000)
const TOKENS = 1_000
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
const us = (ms: number) => Math.round(ms * 1000 * 10) / 10

interface Figures { p50_us: number; p99_us: number; max_us: number; checks: number }

async function measure(engine: SqlEngine): Promise<{ cached: Figures; uncached: Figures }> {
  let clock = Date.now()
  const tokens = createTokens({ engine: () => engine, now: () => clock })
  let secret = ''
  for (let i = 0; i < TOKENS; i++) secret = (await tokens.create({ name: `token ${i}`, role: 'editor', workspaceId: 'default', by: null })).secret
  const header = `Bearer ${secret}`

  async function run(n: number, advance: number): Promise<Figures> {
    const times: number[] = []
    for (let i = 0; i < n + n / 10; i++) {
      clock += advance
      const started = performance.now()
      const token = await tokens.verify(bearerOf(header))
      const took = performance.now() - started
      if (!token) throw new Error('the token was refused')
      // The first tenth warms up.
      if (i >= n / 10) times.push(took)
    }
    times.sort((a, b) => a - b)
    return { p50_us: us(quantile(times, 0.5)), p99_us: us(quantile(times, 0.99)), max_us: us(times.at(-1) ?? Number.NaN), checks: times.length }
  }
  const cached = await run(CACHED, 0)
  const uncached = await run(UNCACHED, TOKEN_CACHE_MS)
  return { cached, uncached }
}

const load: number[] = [loadavg()[0] ?? 0]
const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-tokens-'))
let sqlite: { cached: Figures; uncached: Figures }
try {
  const engine = createSqliteEngine(openDatabase({ file: join(dir, 'hookloop.db'), notice: () => undefined }))
  sqlite = await measure(engine)
  await engine.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
load.push(loadavg()[0] ?? 0)
let postgres: { cached: Figures; uncached: Figures } | null = null
if (!process.argv.includes('--no-postgres')) {
  const server = await startTestPostgres()
  try {
    const { engine } = await openStore(parseStoreLocation(await server.freshDatabase()), { notice: () => undefined, withoutSecrets: true })
    postgres = await measure(engine)
    await engine.close()
  } finally {
    await server.stop()
  }
  load.push(loadavg()[0] ?? 0)
}
process.stdout.write(
  JSON.stringify({
    bench: 'tokens',
    tokens: TOKENS,
    sqlite,
    postgres,
    cached_p99_under_50us: sqlite.cached.p99_us < 50 && (postgres === null || postgres.cached.p99_us < 50),
    cores: cpus().length,
    node: process.version,
    load: load.map((l) => Math.round(l * 10) / 10),
  }) + '\n',
)
