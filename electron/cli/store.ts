// `hookloop store copy --from STORE --to STORE` moves a whole store between a data folder and a
// team's PostgreSQL (either way), ids and links kept; `hookloop store status [--store STORE]`
// says which store a command would open, its schema version and what it holds. STORE is a data
// folder or a postgres:// URL (docs/team.md).
import { existsSync } from 'node:fs'
import { COPIED_TABLES, copyStore, openStore, StoreError, type OpenedStore, type StoreLocation, type TableCopy } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { dataDirArg } from './data-dir-arg'
import { stderrProgress } from './progress'
import { STORE_ENV, storeLocationArg } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop store copy --from STORE --to STORE [--key-file FILE] [--json]
       hookloop store status [--store STORE] [--json]

STORE is a data folder (its hookloop.db) or a team's PostgreSQL: postgres://user:password@host:5432/database.

copy: every endpoint, rule, subscription, event, delivery, attempt, captured request, forward leg,
scenario and setting, ids and links kept. Rows the target already has are left alone, so a second
copy copies nothing twice and an interrupted one picks up where it stopped. Signing secrets are
opened with the source's data key and sealed again with the target's.
status: the store's engine, where it is, its schema version and its rows per table.
{options}
A PostgreSQL store's data key (the same for every process): --key-file, else HOOKLOOP_SECRET_KEY_FILE
or HOOKLOOP_SECRET_KEY. A key file that does not exist is made (32 random bytes, mode 0600).
Exit status: 0 done, 1 a store could not be opened or written, 2 bad usage.`

const OPTIONS = {
  from: { type: 'string', value: 'STORE', help: 'copy: the store to read (it must exist)' },
  to: { type: 'string', value: 'STORE', help: 'copy: the store to write (made if new)' },
  store: { type: 'string', value: 'STORE', help: 'status: the store (default: --store / HOOKLOOP_STORE, else the data folder)' },
  'key-file': { type: 'string', value: 'FILE', help: "the PostgreSQL side's data key file" },
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies OptionSpecs

const location = (flag: string, value: string): StoreLocation => storeLocationArg('store', flag, value)

const withSpaces = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ')

export const storeCommand: Command = async (args) => {
  const [action, ...rest] = args
  if (action === undefined || action === '--help' || action === '-h') {
    commandArgs('store', USAGE, ['--help'], OPTIONS)
    return action === undefined ? 2 : 0
  }
  if (action !== 'copy' && action !== 'status') throw new UsageError(`store: unknown action "${action}" (actions: copy, status)`)
  const parsed = commandArgs('store', USAGE, rest, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const postgresKey = v['key-file'] === undefined ? {} : { postgresKey: { file: v['key-file'] } }
  try {
    return action === 'copy' ? await copy(v.from, v.to, v.json, postgresKey) : await status(v.store, v.json, postgresKey)
  } catch (error) {
    if (error instanceof StoreError) {
      process.stderr.write(`hookloop store: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

async function copy(fromFlag: string | undefined, toFlag: string | undefined, json: boolean, options: { postgresKey?: { file: string } }): Promise<number> {
  if (fromFlag === undefined || toFlag === undefined) throw new UsageError('store: copy needs --from STORE and --to STORE')
  const from = location('--from', fromFlag)
  const to = location('--to', toFlag)
  if (from.where === to.where) throw new UsageError(`store: --from and --to are the same store (${from.where})`)
  if (from.kind === 'sqlite' && !existsSync(from.file)) throw new UsageError(`store: no Hookloop data at --from ${fromFlag} (${from.file} does not exist)`)
  const source = await openStore(from, options)
  let target: OpenedStore | undefined
  try {
    target = await openStore(to, options)
    const progress = stderrProgress('store copy')
    let copies: TableCopy[]
    try {
      copies = await copyStore(source, target, { onProgress: (p) => progress.update(p.rows, p.rows, `${p.table} read`) })
    } finally {
      progress.end()
    }
    const copied = copies.reduce((n, c) => n + c.copied, 0)
    const there = copies.reduce((n, c) => n + c.rows - c.copied, 0)
    if (json) {
      process.stdout.write(JSON.stringify({ from: source.engine.where, to: target.engine.where, copied, alreadyThere: there, tables: copies }, null, 2) + '\n')
    } else {
      const width = Math.max(...COPIED_TABLES.map((t) => t.length))
      for (const c of copies) process.stdout.write(`  ${c.table.padEnd(width)} ${withSpaces(c.copied).padStart(9)} copied${c.rows > c.copied ? `, ${withSpaces(c.rows - c.copied)} already there` : ''}\n`)
      process.stdout.write(`Copied ${withSpaces(copied)} row${copied === 1 ? '' : 's'} from ${source.engine.where} to ${target.engine.where}${there > 0 ? `; ${withSpaces(there)} were there already` : ''}.\n`)
    }
    return 0
  } finally {
    await source.engine.close()
    await target?.engine.close()
  }
}

async function status(storeFlag: string | undefined, json: boolean, options: { postgresKey?: { file: string } }): Promise<number> {
  const given = storeFlag ?? process.env[STORE_ENV]?.trim()
  const where = given ? location('--store', given) : location('--store', dataDirArg('store', undefined))
  if (where.kind === 'sqlite' && !existsSync(where.file)) throw new UsageError(`store: no Hookloop data at ${where.file}`)
  const store = await openStore(where, options)
  try {
    const version = store.engine.kind === 'sqlite'
      ? (await store.engine.get<{ user_version: number }>('PRAGMA user_version'))?.user_version
      : (await store.engine.get<{ version: number }>('SELECT version FROM hookloop_schema'))?.version
    const rows: Record<string, number> = {}
    for (const table of COPIED_TABLES) rows[table] = (await store.engine.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0
    const engine = store.engine.kind === 'sqlite' ? 'SQLite (a data folder)' : 'PostgreSQL (a team store)'
    if (json) process.stdout.write(JSON.stringify({ engine: store.engine.kind, where: store.engine.where, schemaVersion: version, rows }, null, 2) + '\n')
    else {
      process.stdout.write(`${engine} at ${store.engine.where}, schema version ${version}\n`)
      for (const [table, n] of Object.entries(rows)) process.stdout.write(`  ${table.padEnd(13)} ${withSpaces(Number(n)).padStart(9)}\n`)
    }
    return 0
  } finally {
    await store.engine.close()
  }
}
