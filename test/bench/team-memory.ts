// bench:team's memory: the resident set of `hookloop serve`'s engine process (where the store is
// opened and read) with REQUESTS requests in its store, on a data folder and on a team's
// PostgreSQL, each after a live client opened it as the app does (a snapshot and the timeline's
// first page). The same rows on both: bench:scale's seeded data folder (bulk INSERTs in big
// transactions, cached between runs), copied into a fresh database by `store copy`'s own code
// (copyStore: batched multi-row INSERTs, then the request counters made again from the rows), as
// `hookloop store copy` runs it, the counters' trigger on.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyStore, openStore, parseStoreLocation } from '../../electron/engine/store'
import type { TestPostgres } from '../support/postgres'
import { connect, engineMemory, stop } from './scale-control'
import { seededDataFolder } from './scale-seed'
import { serveOn } from './team-serve'
import { freshStore } from './team-stores'

const CACHE_DIR = process.env.BENCH_SCALE_CACHE ?? join(tmpdir(), 'hookloop-bench-scale')
/** Rows per INSERT of the copy: 2 000 rows of requests' columns stay under PostgreSQL's 65 535 parameters. */
const COPY_BATCH = 2_000

export interface MemoryFigures {
  requests: number
  /** Seconds to seed the folder (0 when bench:scale's cache had it) and to copy it into PostgreSQL. */
  seed_s: number
  copy_s: number
  /** The requests the team store's counters say it holds, after the copy. */
  counted_pg: number
  rss_mib_sqlite: number
  rss_mib_pg: number
  rss_pg_vs_sqlite: number
}

/** The engine's RSS once a client has opened the app on the store. */
async function rssOf(where: string, keyFile: string): Promise<number> {
  const served = await serveOn(where, { keyFile })
  try {
    const client = await connect(served)
    await client.call('snapshot', {})
    await client.call('timeline.page', { offset: 0, limit: 100 })
    await new Promise((r) => setTimeout(r, 1_000))
    client.close()
    return Number(engineMemory(served).rssMb.toFixed(1))
  } finally {
    await stop(served)
  }
}

export async function memoryWith(requests: number, postgres: TestPostgres): Promise<MemoryFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-bench-memory-'))
  try {
    const dataDir = join(dir, 'data')
    const { seedMs } = seededDataFolder(dataDir, { requests, deliveries: 0 }, CACHE_DIR)
    const team = await freshStore('postgres', dir, postgres)
    const keyFile = join(dir, 'team.key')
    const quiet = { notice: () => undefined }
    const started = performance.now()
    const from = await openStore(parseStoreLocation(dataDir), quiet)
    const to = await openStore(parseStoreLocation(team.where), { ...quiet, postgresKey: { file: keyFile } })
    try {
      await copyStore(from, to, { batch: COPY_BATCH })
    } finally {
      await from.engine.close()
      await to.engine.close()
    }
    const copyS = (performance.now() - started) / 1000
    const counted = await team.count('SELECT COALESCE(SUM(requests), 0) AS n FROM request_counts')
    const sqlite = await rssOf(join(dataDir, 'hookloop.db'), keyFile)
    const pg = await rssOf(team.where, keyFile)
    return { requests, seed_s: Number((seedMs / 1000).toFixed(1)), copy_s: Number(copyS.toFixed(1)), counted_pg: counted, rss_mib_sqlite: sqlite, rss_mib_pg: pg, rss_pg_vs_sqlite: Number((pg / sqlite).toFixed(3)) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
