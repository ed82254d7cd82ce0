// The SqlEngine over the embedded SQLite file (better-sqlite3, synchronous underneath). Prepared
// statements are kept by their text. A transaction takes the connection for itself: calls made
// on the engine meanwhile wait their turn, so an awaited transaction never takes in a stranger's
// statement.
import type { Database, Statement } from 'better-sqlite3'
import type { SqlEngine, SqlRunResult } from './sql-engine'

// The Database under each SQLite engine (its transactions' too): the store's own modules take a
// synchronous path on it where the hot paths need one (the attempt path's writer, id claims, the
// page cache), so the code above the store never holds the handle nor asks which engine it has.
const databases = new WeakMap<SqlEngine, Database>()

/** The Database a SQLite engine runs on; undefined for any other engine. Store-internal. */
export function databaseOf(engine: SqlEngine): Database | undefined {
  return databases.get(engine)
}

const turnsByFile = new Map<string, { turn: Promise<unknown> }>()
const turnsInMemory = new WeakMap<Database, { turn: Promise<unknown> }>()

function fileTurns(db: Database): { turn: Promise<unknown> } {
  const fresh = () => ({ turn: Promise.resolve() as Promise<unknown> })
  if (db.memory) {
    let turns = turnsInMemory.get(db)
    if (!turns) turnsInMemory.set(db, (turns = fresh()))
    return turns
  }
  let turns = turnsByFile.get(db.name)
  if (!turns) turnsByFile.set(db.name, (turns = fresh()))
  return turns
}

export function createSqliteEngine(db: Database, options: { where?: string; closeDatabase?: boolean } = {}): SqlEngine {
  const statements = new Map<string, Statement>()
  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  // The file's turn in this process: a chain every call and transaction of every engine on this
  // file waits on. A transaction holds the file's write lock across awaits; another connection
  // of this process writing meanwhile would wait on that lock synchronously, on the one thread
  // that has to finish the transaction (two engines on one folder in one process, as tests and
  // `hookloop run` make): it waits for its turn instead.
  const file = fileTurns(db)
  let inTransaction = false
  const direct = {
    all: <T>(sql: string, params: readonly unknown[] = []) => prepared(sql).all(...params) as T[],
    get: <T>(sql: string, params: readonly unknown[] = []) => prepared(sql).get(...params) as T | undefined,
    run: (sql: string, params: readonly unknown[] = []): SqlRunResult => ({ changes: prepared(sql).run(...params).changes }),
    exec: (sql: string) => void db.exec(sql),
  }
  const queued = <R>(work: () => R | Promise<R>): Promise<R> => {
    const next = file.turn.then(work, work)
    file.turn = next.catch(() => undefined)
    return next
  }
  const where = options.where ?? db.name
  // Prepared once: a publish is one short transaction, and parsing these per call showed in its CPU.
  const control = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') }

  function engineOn(useQueue: boolean): SqlEngine {
    const call = <R>(work: () => R): Promise<R> => (useQueue ? queued(work) : Promise.resolve().then(work))
    const self: SqlEngine = {
      kind: 'sqlite',
      where,
      all: (sql, params) => call(() => direct.all(sql, params)),
      get: (sql, params) => call(() => direct.get(sql, params)),
      run: (sql, params) => call(() => direct.run(sql, params)),
      exec: (sql) => call(() => direct.exec(sql)),
      transaction: <R>(work: (tx: SqlEngine) => Promise<R>): Promise<R> => {
        if (!useQueue) throw new Error('a transaction inside a transaction: use the tx you were given')
        return queued(async () => {
          if (inTransaction || db.inTransaction) throw new Error('the SQLite connection is already in a transaction')
          inTransaction = true
          control.begin.run()
          try {
            const result = await work(inside)
            control.commit.run()
            return result
          } catch (error) {
            if (db.inTransaction) control.rollback.run()
            throw error
          } finally {
            inTransaction = false
          }
        })
      },
      transactionAtOnce: (list) =>
        self.transaction(async (tx) => {
          const results: SqlRunResult[] = []
          for (const statement of list) results.push(await tx.run(statement.sql, statement.params))
          return results
        }),
      close: () => queued(() => {
        statements.clear()
        if (options.closeDatabase !== false) db.close()
      }),
    }
    databases.set(self, db)
    return self
  }
  const inside = engineOn(false)
  return engineOn(true)
}
