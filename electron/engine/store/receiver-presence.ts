// Where the receivers running on this data folder answer. `hookloop mcp` runs no receiver of its
// own, and the app and `hookloop serve` pick a free port: without this, the URLs it gave pointed at
// `hookloop listen`'s default port while the receiver answered elsewhere. A receiver says where it
// listens when it starts (one settings row per process) and takes it back when it stops; a row
// left by a process that died is skipped (its pid no longer runs).
import type { Database } from 'better-sqlite3'
import { processRuns } from './process-runs'
import type { SqlEngine } from './sql-engine'

export interface ReceiverPresence {
  url: string
  pid: number
  startedAt: number
}

const PREFIX = 'receiver:'
const UPSERT_SQL = 'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json'
const REMOVE_SQL = 'DELETE FROM settings WHERE key = ?'
const ownKey = () => `${PREFIX}${process.pid}`
const ownRow = (url: string, startedAt: number) => JSON.stringify({ url, pid: process.pid, startedAt } satisfies ReceiverPresence)

/**
 * The same on a team's PostgreSQL, awaited. Its rows name a pid, which only a reader on the same
 * machine can check: there a receiver says where it answers for the tools of its own machine.
 */
export function createReceiverPresenceOn(engine: SqlEngine) {
  return {
    announce: async (url: string, startedAt: number): Promise<void> => void (await engine.run(UPSERT_SQL, [ownKey(), ownRow(url, startedAt)])),
    withdraw: async (): Promise<void> => void (await engine.run(REMOVE_SQL, [ownKey()])),
  }
}

export function createReceiverPresence(db: Database) {
  const upsert = db.prepare(UPSERT_SQL)
  const remove = db.prepare(REMOVE_SQL)
  const all = db.prepare(`SELECT value_json FROM settings WHERE key LIKE '${PREFIX}%'`).pluck()
  return {
    /** This process's receiver answers at `url` (one per process: the last one started says). */
    announce(url: string, startedAt: number): void {
      upsert.run(ownKey(), ownRow(url, startedAt))
    },
    withdraw(): void {
      remove.run(ownKey())
    },
    /** The receiver started last among those still running on the folder, if any. */
    current(): ReceiverPresence | undefined {
      const found = (all.all() as string[]).flatMap((json) => {
        try {
          const presence = JSON.parse(json) as ReceiverPresence
          return typeof presence.url === 'string' && Number.isInteger(presence.pid) && processRuns(presence.pid) ? [presence] : []
        } catch {
          return []
        }
      })
      return found.sort((a, b) => b.startedAt - a.startedAt)[0]
    },
  }
}
