// Held requests shared through the data folder: the process whose receiver holds a request says so
// here (one settings row per held request), and another process on the folder — `hookloop mcp`,
// `hookloop breakpoint` in another terminal — asks for a decision by writing one beside it. The
// holding process reads the asks only while it holds something (receiver/breakpoints.ts), acts on
// them as if a person of its own had, and answers a refusal in a row of its own. A row left by a
// process that died names a pid that no longer runs: readers skip it.
import type { Database } from 'better-sqlite3'
import type { HeldRequest, HoldDecision } from '../../../shared/receiver'
import { processRuns } from './process-runs'
import type { SqlEngine } from './sql-engine'

const HELD = 'held:'
const ASK = 'hold-ask:'
const REFUSED = 'hold-refused:'

interface HeldRow {
  pid: number
  request: HeldRequest
}

const UPSERT_SQL = 'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json'
const REMOVE_SQL = 'DELETE FROM settings WHERE key = ?'
// The prefix's range (an index range on the key); CAST: PostgreSQL types the parameter before the ||.
const WITH_PREFIX_SQL = "SELECT key, value_json FROM settings WHERE key >= ? AND key < CAST(? AS TEXT) || '~'"
const heldRow = (request: HeldRequest) => JSON.stringify({ pid: process.pid, request } satisfies HeldRow)
const parse = <T>(json: string): T | undefined => {
  try {
    return JSON.parse(json) as T
  } catch {
    return undefined
  }
}

/** What the holding process does with the shared rows (receiver/breakpoints.ts): at once on a data folder, awaited on a team's PostgreSQL. */
export interface HeldRequestSharing {
  announce(request: HeldRequest): void | Promise<void>
  withdraw(requestId: number): void | Promise<void>
  takeAsks(requestIds: ReadonlySet<number>): { requestId: number; decision: HoldDecision }[] | Promise<{ requestId: number; decision: HoldDecision }[]>
  refuse(requestId: number, reason: string): void | Promise<void>
}

/**
 * The holding process's side on a team's PostgreSQL, awaited. The rows name a pid, which only a
 * process on the same machine can check; a held request is announced and its asks taken the same way.
 */
export function createHeldRequestSharingOn(engine: SqlEngine): HeldRequestSharing {
  return {
    announce: async (request) => void (await engine.run(UPSERT_SQL, [`${HELD}${request.requestId}`, heldRow(request)])),
    async withdraw(requestId) {
      await engine.run(REMOVE_SQL, [`${HELD}${requestId}`])
      await engine.run(REMOVE_SQL, [`${ASK}${requestId}`])
    },
    async takeAsks(requestIds) {
      const out: { requestId: number; decision: HoldDecision }[] = []
      for (const row of await engine.all<{ key: string; value_json: string }>(WITH_PREFIX_SQL, [ASK, ASK])) {
        const requestId = Number(row.key.slice(ASK.length))
        if (!requestIds.has(requestId)) continue
        // Taken by the one delete that removed it: an ask is acted on once.
        if ((await engine.run(REMOVE_SQL, [row.key])).changes === 0) continue
        const decision = parse<HoldDecision>(row.value_json)
        if (decision) out.push({ requestId, decision })
      }
      return out
    },
    refuse: async (requestId, reason) => void (await engine.run(UPSERT_SQL, [`${REFUSED}${requestId}`, JSON.stringify(reason)])),
  }
}

export function createHeldRequestStore(db: Database) {
  const upsert = db.prepare(UPSERT_SQL)
  const remove = db.prepare(REMOVE_SQL)
  const read = db.prepare('SELECT value_json FROM settings WHERE key = ?').pluck()
  const withPrefix = db.prepare(WITH_PREFIX_SQL)
  const rowsOf = (prefix: string) => withPrefix.all(prefix, prefix) as { key: string; value_json: string }[]
  return {
    /** This process holds the request. */
    announce(request: HeldRequest): void {
      upsert.run(`${HELD}${request.requestId}`, heldRow(request))
    },
    /** The request is no longer held (its ask, if any, is moot). */
    withdraw(requestId: number): void {
      remove.run(`${HELD}${requestId}`)
      remove.run(`${ASK}${requestId}`)
    },
    /** Every request held now by a running process on the folder, oldest first. */
    list(): HeldRequest[] {
      return rowsOf(HELD)
        .flatMap((row) => {
          const held = parse<HeldRow>(row.value_json)
          return held && Number.isInteger(held.pid) && processRuns(held.pid) ? [held.request] : []
        })
        .sort((a, b) => a.heldAt - b.heldAt)
    },
    /** Asks the holding process to decide; a refusal of an earlier ask is forgotten. */
    ask(requestId: number, decision: HoldDecision): void {
      remove.run(`${REFUSED}${requestId}`)
      upsert.run(`${ASK}${requestId}`, JSON.stringify(decision))
    },
    /** The asks for these requests, taken (each is acted on once). */
    takeAsks(requestIds: ReadonlySet<number>): { requestId: number; decision: HoldDecision }[] {
      const out: { requestId: number; decision: HoldDecision }[] = []
      for (const row of rowsOf(ASK)) {
        const requestId = Number(row.key.slice(ASK.length))
        if (!requestIds.has(requestId)) continue
        remove.run(row.key)
        const decision = parse<HoldDecision>(row.value_json)
        if (decision) out.push({ requestId, decision })
      }
      return out
    },
    /** The holding process could not act on an ask: why, for the one who asked. */
    refuse(requestId: number, reason: string): void {
      upsert.run(`${REFUSED}${requestId}`, JSON.stringify(reason))
    },
    /** Whether the request is still held (by a running process), and why its last ask was refused, if it was. */
    state(requestId: number): { held: boolean; asked: boolean; refused: string | null } {
      const held = parse<HeldRow>((read.get(`${HELD}${requestId}`) as string | undefined) ?? 'null')
      const refused = parse<string>((read.get(`${REFUSED}${requestId}`) as string | undefined) ?? 'null') ?? null
      return { held: held !== undefined && held !== null && processRuns(held.pid), asked: read.get(`${ASK}${requestId}`) !== undefined, refused }
    },
  }
}
export type HeldRequestStore = ReturnType<typeof createHeldRequestStore>
