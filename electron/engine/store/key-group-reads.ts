// The receiver's key probes on a team's PostgreSQL, batched: every keyed arrival asks the server
// for its key's group (readKeyGroup in requests.ts says why), and on a busy receiver those were a
// statement and a round trip each, the server's largest share of a capture after the commit. The
// arrivals of one turn of the event loop now go as one statement (the keys as a JSON list, each a
// lateral probe of requests_by_dedupe_key, its first arrival joined), each answered as alone.
import { groupOf, type KeyGroup, type KeyTimes, type LastOfKey } from './requests'
import type { SqlEngine } from './sql-engine'

const KEY_GROUPS_SQL = `SELECT k.n, l.id, l.received_at, l.stored_at, l.attempt_id, l.duplicate_of, l.duplicate_number,
       f.received_at AS first_received_at, f.stored_at AS first_stored_at, f.attempt_id AS first_attempt_id, f.id AS first_id
  FROM json_to_recordset(CAST(? AS json)) AS k(n INTEGER, endpoint_id TEXT, dedupe_key TEXT, digest BOOLEAN)
  CROSS JOIN LATERAL (SELECT id, received_at, stored_at, attempt_id, duplicate_of, duplicate_number FROM requests
     WHERE endpoint_id = k.endpoint_id AND dedupe_key = k.dedupe_key AND (dedupe_key_mark IS NOT NULL) = k.digest
     ORDER BY received_at DESC, id DESC LIMIT 1) l
  LEFT JOIN requests f ON f.id = l.duplicate_of`

type Found = LastOfKey & { n: number; first_received_at: number | null; first_stored_at: number | null; first_attempt_id: number | null; first_id: number | null }
interface Asked {
  endpoint_id: string
  dedupe_key: string
  digest: boolean
  resolve: (group: KeyGroup | undefined) => void
  reject: (error: unknown) => void
}

/** readKeyGroup's answer for each key, the keys asked in one turn read in one statement (a team's PostgreSQL). */
export function createKeyGroupReads(engine: SqlEngine): (endpointId: string, dedupeKey: string, digest: boolean) => Promise<KeyGroup | undefined> {
  let asked: Asked[] = []
  const read = async (batch: Asked[]) => {
    try {
      const rows = await engine.all<Found>(KEY_GROUPS_SQL, [JSON.stringify(batch.map((a, n) => ({ n, endpoint_id: a.endpoint_id, dedupe_key: a.dedupe_key, digest: a.digest })))])
      const byN = new Map(rows.map((row) => [Number(row.n), row]))
      batch.forEach((a, n) => {
        const row = byN.get(n)
        if (!row) return a.resolve(undefined)
        const first: KeyTimes | undefined = row.first_id === null ? undefined : { received_at: row.first_received_at as number, stored_at: row.first_stored_at, attempt_id: row.first_attempt_id }
        a.resolve(groupOf(row, first))
      })
    } catch (error) {
      for (const a of batch) a.reject(error)
    }
  }
  return (endpointId, dedupeKey, digest) =>
    new Promise((resolve, reject) => {
      if (asked.length === 0)
        setImmediate(() => {
          const batch = asked
          asked = []
          void read(batch)
        })
      asked.push({ endpoint_id: endpointId, dedupe_key: dedupeKey, digest, resolve, reject })
    })
}
