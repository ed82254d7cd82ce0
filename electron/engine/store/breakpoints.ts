// The breakpoints of a data folder: one settings row ('breakpoints', a JSON list), so they survive
// a restart and every process on the folder holds by the same list. A list is small (a person sets
// each one), so it is read and written whole. An entry that no longer parses is set aside with
// its reason, never dropped in silence: the next save keeps it as it was. One for every endpoint
// names the workspace whose endpoints it holds (`workspaceId`, since schema 29; absent: `default`).
import type { Database } from 'better-sqlite3'
import { DefinitionError, parseBreakpoint, type Breakpoint } from '../../../shared/receiver'
import { runWrite } from './engine-writes'
import type { SqlEngine } from './sql-engine'

const READ = "SELECT value_json FROM settings WHERE key = 'breakpoints'"
const WRITE = "INSERT INTO settings (key, value_json) VALUES ('breakpoints', ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json"

export interface StoredBreakpoints {
  breakpoints: Breakpoint[]
  /** Entries that do not parse (from a newer Hookloop, or edited by hand), with why. */
  setAside: { entry: unknown; reason: string }[]
}

/** The list as stored, read whole: its breakpoints and the entries set aside. */
function parseList(json: string | undefined): StoredBreakpoints {
  const out: StoredBreakpoints = { breakpoints: [], setAside: [] }
  if (json === undefined) return out
  let list: unknown
  try {
    list = JSON.parse(json)
  } catch (error) {
    out.setAside.push({ entry: json, reason: `not JSON: ${(error as Error).message}` })
    return out
  }
  if (!Array.isArray(list)) return { ...out, setAside: [{ entry: list, reason: 'expected a list' }] }
  list.forEach((entry: unknown, index) => {
    try {
      // The workspace of one for every endpoint is the receiver's to set (schema 29), not part of
      // what a person puts: read beside the definition.
      const { workspaceId, ...definition } = typeof entry === 'object' && entry !== null ? (entry as { workspaceId?: unknown }) : { workspaceId: undefined }
      if (workspaceId !== undefined && typeof workspaceId !== 'string') throw new DefinitionError('workspaceId', 'expected a workspace id')
      const breakpoint = parseBreakpoint(typeof entry === 'object' && entry !== null ? definition : entry, `bp-${index + 1}`)
      out.breakpoints.push(breakpoint.endpointId === null && workspaceId !== undefined ? { ...breakpoint, workspaceId } : breakpoint)
    } catch (error) {
      out.setAside.push({ entry, reason: error instanceof DefinitionError ? error.message : String(error) })
    }
  })
  return out
}

const listJson = (breakpoints: readonly Breakpoint[], kept: StoredBreakpoints) => JSON.stringify([...breakpoints, ...kept.setAside.map((s) => s.entry)])

export function createBreakpointStore(db: Database) {
  const read = db.prepare(READ).pluck()
  const write = db.prepare(WRITE)
  const load = (): StoredBreakpoints => parseList(read.get() as string | undefined)
  return {
    load,
    save(breakpoints: readonly Breakpoint[]): void {
      write.run(listJson(breakpoints, load()))
    },
  }
}
export type BreakpointStore = ReturnType<typeof createBreakpointStore>

/** The same list on a team's PostgreSQL, awaited. */
export function createBreakpointStoreOn(engine: SqlEngine) {
  const load = async (): Promise<StoredBreakpoints> => parseList((await engine.get<{ value_json: string }>(READ))?.value_json)
  return {
    load,
    async save(breakpoints: readonly Breakpoint[]): Promise<void> {
      // Told as a change of `settings`: another process's definitions watch reloads the list.
      await runWrite(engine, ['settings'], WRITE, [listJson(breakpoints, await load())])
    },
  }
}
export type BreakpointStoreOn = ReturnType<typeof createBreakpointStoreOn>
