// The advisory locks of commits that write `requests` on a team's PostgreSQL (per database: per
// store), beside the migrations', retention's and the events' keys. Why each exists is in
// count-definitions.ts (REQUEST_COUNT_SHARDS_POSTGRES, schema 31).

/**
 * Held shared by every commit that inserts, deletes or moves requests (the counters' triggers take
 * it), and whole by a bulk write: a retention batch, a scenario run's removal, a statement past
 * the group locks' bound. Until schema 31 every such commit took it whole, and they took turns.
 */
export const REQUESTS_WRITE_LOCK = 7_304_151_124

/**
 * The two-key advisory locks' first key for a received group's lock: a group's lock is
 * (REQUEST_GROUP_LOCKS, hashtext of its endpoint and key). Two-key locks are apart from the
 * one-key ones (REQUESTS_WRITE_LOCK and the rest), whatever the hash.
 */
export const REQUEST_GROUP_LOCKS = 7_304_151

/** The transaction's setting that counts the group locks it holds; -1 once it holds REQUESTS_WRITE_LOCK whole. */
export const REQUEST_GROUP_LOCKS_TAKEN = 'hookloop.request_group_locks'

/**
 * REQUESTS_WRITE_LOCK taken whole for the rest of the transaction (a retention batch, a run's
 * removal): its deletes then take no group lock of their own, however many groups they touch.
 */
export const LOCK_REQUESTS_WHOLE_SQL = `SELECT pg_advisory_xact_lock(CAST(${REQUESTS_WRITE_LOCK} AS BIGINT)), set_config('${REQUEST_GROUP_LOCKS_TAKEN}', '-1', true)`
