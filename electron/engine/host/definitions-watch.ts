// Endpoints, rules and subscriptions written by another process on the same data folder (a
// `hookloop listen --config`, another app window's engine, a `serve`): the running engine keeps
// them in memory (the receiver's routes, the sender's subscription cache), so without this it
// would answer and list from an old copy until restarted. Polls PRAGMA data_version; only when it
// moved are the small definition tables compared with what was seen last.
import type { Database } from 'better-sqlite3'
import { createDefinitionReads, DEFINITION_TABLES, type DefinitionTable } from '../store'

export interface DefinitionsWatchOptions {
  db: Database
  /** The tables whose rows another process changed since the last call (never empty). */
  onChanged: (tables: ReadonlySet<DefinitionTable>) => void
  /** How often to look (default 200 ms). */
  intervalMs?: number
}

export interface DefinitionsWatch {
  /** Look now (as a tick of the poll does); returns what changed. */
  check(): ReadonlySet<DefinitionTable>
  stop(): void
}

export function watchDefinitions(options: DefinitionsWatchOptions): DefinitionsWatch {
  const reads = createDefinitionReads(options.db)
  let version = reads.dataVersion()
  const seen = new Map<DefinitionTable, string>(DEFINITION_TABLES.map((table) => [table, reads.fingerprint(table)]))

  function check(): ReadonlySet<DefinitionTable> {
    const changed = new Set<DefinitionTable>()
    const now = reads.dataVersion()
    if (now === version) return changed
    // Read every table before taking anything as seen: a read that throws leaves all for the next tick.
    const fingerprints = DEFINITION_TABLES.map((table) => [table, reads.fingerprint(table)] as const)
    version = now
    for (const [table, fingerprint] of fingerprints) {
      if (seen.get(table) === fingerprint) continue
      seen.set(table, fingerprint)
      changed.add(table)
    }
    if (changed.size > 0) options.onChanged(changed)
    return changed
  }

  const timer = setInterval(() => {
    try {
      check()
    } catch {
      // A busy database: the version is read again on the next tick, and compared then.
    }
  }, options.intervalMs ?? 200)
  timer.unref()
  return { check, stop: () => clearInterval(timer) }
}
