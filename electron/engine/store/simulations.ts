// Named statements over the simulations table: one row per run on a virtual or scaled clock, so
// every delivery made in it can say which clock its times are on (docs/time.md).
import type { Database } from 'better-sqlite3'
import { prepareWrite } from './changes'
import { runWrite } from './engine-writes'
import type { SqlEngine } from './sql-engine'
import type { KeyedStatements } from './keyed-statements'

export interface SimulationRow {
  id: string
  mode: 'virtual' | 'scaled'
  /** Simulated ms per wall ms (1 for virtual). */
  scale: number
  /** On the simulation's own clock. */
  started_at: number
  started_wall_at: number
  label: string
}

export interface SimulationStatements extends KeyedStatements<SimulationRow> {
  /** Records a simulation that `owner`'s engine runs (its clock is that engine's). */
  start(row: SimulationRow, owner: string): void
  /** The simulation ended: what it left continues on the wall clock (store/deliveries.ts). */
  end(id: string): void
  /** Simulations still running, and the engine running each (to find those whose process is gone). */
  running(): Array<{ id: string; owner: string }>
  /** Newest first; only simulations that still hold a delivery, plus `keep` (the one running now). */
  withRows(keep: string | null, limit: number): SimulationRow[]
  /** The simulation an attempt's delivery ran in; undefined on the wall clock. */
  ofAttempt(attemptId: number): SimulationRow | undefined
  /** The simulation a delivery ran in; undefined on the wall clock. */
  ofDelivery(deliveryId: number): SimulationRow | undefined
}

const COLUMNS = 'id, mode, scale, started_at, started_wall_at, label'

const S_COLUMNS = COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')
/** The simulation an attempt or a delivery ran in, also run through SqlEngine (store/detail-reads.ts). */
export const SIMULATION_OF_ATTEMPT_SQL = `SELECT ${S_COLUMNS} FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN simulations s ON s.id = d.simulation_id WHERE a.id = ?`
export const SIMULATION_OF_DELIVERY_SQL = `SELECT ${S_COLUMNS} FROM deliveries d JOIN simulations s ON s.id = d.simulation_id WHERE d.id = ?`

// The clock picker's list, kept and running first (`?` keep, `?` limit); deliveries_by_simulation
// answers each EXISTS with one index probe.
const WITH_ROWS_SQL = `SELECT ${COLUMNS} FROM simulations s
      WHERE s.id = ? OR EXISTS (SELECT 1 FROM deliveries d WHERE d.simulation_id = s.id)
      ORDER BY started_wall_at DESC, id DESC LIMIT ?`
const START_SQL = `INSERT INTO simulations (${COLUMNS}, owner) VALUES (?, ?, ?, ?, ?, ?, ?)`
const startParams = (row: SimulationRow, owner: string) => [row.id, row.mode, row.scale, row.started_at, row.started_wall_at, row.label, owner]
const END_SQL = 'UPDATE simulations SET owner = NULL WHERE id = ? AND owner IS NOT NULL'
const RUNNING_SQL = 'SELECT id, owner FROM simulations WHERE owner IS NOT NULL'

/** Which simulations run, starting and ending one, awaited on either store engine (the sender's crash recovery, an engine on a team's PostgreSQL). */
export function createSimulationOwners(engine: SqlEngine) {
  return {
    start: async (row: SimulationRow, owner: string) => void (await runWrite(engine, ['simulations'], START_SQL, startParams(row, owner))),
    running: () => engine.all<{ id: string; owner: string }>(RUNNING_SQL),
    end: async (id: string) => void (await runWrite(engine, ['simulations'], END_SQL, [id])),
  }
}

export function createSimulationStatements(db: Database): SimulationStatements {
  const insert = prepareWrite(db, 'simulations', `INSERT INTO simulations (${COLUMNS}) VALUES (@id, @mode, @scale, @started_at, @started_wall_at, @label)`)
  const start = prepareWrite(db, 'simulations', START_SQL)
  const end = prepareWrite(db, 'simulations', END_SQL)
  const running = db.prepare(RUNNING_SQL)
  const get = db.prepare(`SELECT ${COLUMNS} FROM simulations WHERE id = ?`)
  const withRows = db.prepare(WITH_ROWS_SQL)
  const ofAttempt = db.prepare(SIMULATION_OF_ATTEMPT_SQL)
  const ofDelivery = db.prepare(SIMULATION_OF_DELIVERY_SQL)
  return {
    insert: (row) => void insert.run(row),
    start: (row, owner) => void start.run(...startParams(row, owner)),
    end: (id) => void end.run(id),
    running: () => running.all() as Array<{ id: string; owner: string }>,
    ofDelivery: (deliveryId) => ofDelivery.get(deliveryId) as SimulationRow | undefined,
    ofAttempt: (attemptId) => ofAttempt.get(attemptId) as SimulationRow | undefined,
    get: (id) => get.get(id) as SimulationRow | undefined,
    withRows: (keep, limit) => withRows.all(keep, limit) as SimulationRow[],
  }
}

/** withRows of SimulationStatements on either store engine, awaited (the host's clock picker). */
export function simulationsWithRows(engine: SqlEngine, keep: string | null, limit: number): Promise<SimulationRow[]> {
  return engine.all<SimulationRow>(WITH_ROWS_SQL, [keep, limit])
}
