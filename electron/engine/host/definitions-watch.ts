// Endpoints, rules, subscriptions and breakpoints written by another process on the same store (a
// `hookloop listen --config`, another app window's engine, another `serve` on the team's
// PostgreSQL): the running engine keeps them in memory (the receiver's routes, the sender's
// subscription cache), so without this it would answer and list from an old copy until restarted.
// Driven by the store's change feed (store/change-feed.ts): only when it names a definitions table
// (or cannot say which, as a data folder's data_version poll and a lost PostgreSQL listener) are
// those small tables read, through SqlEngine, and compared with what was seen last.
import { createDefinitionReads, definitionsIn, DEFINITION_TABLES, type DefinitionTable, type SqlEngine, type StoreChangeFeed } from '../store'

export interface DefinitionsWatchOptions {
  /** The store the definitions are read from. */
  engine: SqlEngine
  /** Which tables changed: the watch subscribes, its owner closes the feed. */
  changes: StoreChangeFeed
  /** The tables whose rows changed since the last call (never empty). */
  onChanged: (tables: ReadonlySet<DefinitionTable>) => void
  /** A read that failed (a busy or unreachable store): the tables stay to be read on the next change. */
  onError?: (error: unknown) => void
}

export interface DefinitionsWatch {
  /** Read and compare every definitions table now; returns what changed (told to onChanged too). */
  check(): Promise<ReadonlySet<DefinitionTable>>
  stop(): void
}

/** Starts from the definitions the store holds now. */
export async function watchDefinitions(options: DefinitionsWatchOptions): Promise<DefinitionsWatch> {
  const reads = createDefinitionReads(options.engine)
  const seen = new Map<DefinitionTable, string>()
  for (const table of DEFINITION_TABLES) seen.set(table, await reads.fingerprint(table))
  /** Tables told changed and not read since. */
  const due = new Set<DefinitionTable>()
  let reading: Promise<ReadonlySet<DefinitionTable>> | null = null
  let stopped = false

  async function compare(tables: readonly DefinitionTable[]): Promise<ReadonlySet<DefinitionTable>> {
    // Read every table before taking anything as seen: a read that throws leaves all for the next change.
    const fingerprints = await Promise.all(tables.map(async (table) => [table, await reads.fingerprint(table)] as const))
    const changed = new Set<DefinitionTable>()
    for (const [table, fingerprint] of fingerprints) {
      if (seen.get(table) === fingerprint) continue
      seen.set(table, fingerprint)
      changed.add(table)
    }
    if (changed.size > 0 && !stopped) options.onChanged(changed)
    return changed
  }

  // One read at a time; what is told meanwhile is read once it ends.
  function drain(): void {
    if (reading || due.size === 0 || stopped) return
    const tables = [...due]
    due.clear()
    reading = compare(tables)
    reading.then(
      () => {
        reading = null
        drain()
      },
      (error: unknown) => {
        reading = null
        // They wait for the next change rather than hammering a store that is down.
        tables.forEach((table) => due.add(table))
        options.onError?.(error)
      },
    )
  }

  const off = options.changes.subscribe((tables) => {
    for (const table of tables) {
      const definition = definitionsIn(table)
      if (definition) due.add(definition)
    }
    drain()
  })
  return {
    check: () => compare(DEFINITION_TABLES),
    stop: () => {
      stopped = true
      off()
    },
  }
}
