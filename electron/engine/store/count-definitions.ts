// The definitions behind every count the app shows, as SQL predicates over a named table alias, so
// each query that counts (store/counts.ts) or marks a row (store/timeline-reads.ts) says the same
// thing the same way. The words for them are in shared/contract/counts.ts; docs/ui.md explains them.
import { sameAs, sameDedupeKey } from './engine-spelling'
import type { StoreKind } from './sql-engine'
import { REQUEST_GROUP_LOCKS, REQUEST_GROUP_LOCKS_TAKEN, REQUESTS_WRITE_LOCK } from './request-locks'

/**
 * The column that says when a delivery was created on the wall clock: the 24 h failure badge
 * counts deliveries by it. `created_at` is on the engine's clock (virtual inside a simulation);
 * `created_wall_at` is the wall time, whatever simulation made the delivery (docs/time.md).
 */
export const DELIVERY_WALL_CREATED_COLUMN = 'created_wall_at'

/** An attempt the policy classified as success (alias `a` = attempts). */
export const ATTEMPT_SUCCEEDED = `a.decision = 'succeeded'`

/** An attempt the policy classified as failure: retried or final; the one in flight is neither. */
export const ATTEMPT_FAILED = `a.decision IN ('retry', 'failed')`

/** A failed delivery: final, retries run out or a final answer (alias `d` = deliveries). */
export const DELIVERY_FAILED = `d.status = 'failed'`

/**
 * A duplicate arrival (alias `r` = requests): a captured request whose dedupe key had already
 * arrived at its endpoint inside the endpoint's window; the receiver numbers arrivals (1 = first).
 * By the number, not by duplicate_of: pruning the first arrival clears that link, not the fact.
 */
export const DUPLICATE_ARRIVAL = `coalesce(r.duplicate_number, 1) > 1`

/**
 * Which requests are an attempt's (alias `r` = requests, `a` = attempts): counted on the
 * attempt's delivery row and its subscription's card. The receiver stores a link only for a
 * request whose link checks out (sender/attempt-link.ts) and that is its attempt's first
 * (receiver.ts `linkedAttempt`; older stores are brought to the same rule once,
 * store/attempt-links.ts), and pruning an attempt clears its request's link: so a linked request
 * is its attempt's own, and every other request is received traffic (RECEIVED_REQUEST), counted
 * on the row of its endpoint and key. Each request counts once, in exactly one row.
 */
export const ATTEMPT_REQUEST = `r.attempt_id = a.id`
/** Whether request `q` is received traffic (the rule above, for any alias or a trigger's NEW / OLD). */
export const receivedRequest = (q: string) => `${q}.attempt_id IS NULL`
export const RECEIVED_REQUEST = receivedRequest('r')
/** Whether request `q` is its attempt's own request (the same rule, for another alias). */
export const ownRequest = (q: string) => `${q}.attempt_id IS NOT NULL`

/**
 * The subscriptions whose deliveries belong to endpoint `?` (its id): those that deliver to it
 * (loop mode, `subscriptions.endpoint_slug`). Their attempts arrive there, so their delivery rows
 * are in that endpoint's view beside its received rows; a delivery to a URL belongs to no endpoint.
 * A short list (subscriptions are few); the deliveries follow by deliveries_by_subscription_wall.
 */
export const SUBSCRIPTIONS_TO_ENDPOINT = `SELECT to_s.id FROM subscriptions to_s JOIN endpoints to_e ON to_e.slug = to_s.endpoint_slug WHERE to_e.id = ?`

/** The endpoint a delivery's subscription delivers to (alias `d` = deliveries), or NULL for a URL. */
export const DELIVERY_ENDPOINT = `(SELECT to_e.id FROM subscriptions to_s JOIN endpoints to_e ON to_e.slug = to_s.endpoint_slug WHERE to_s.id = d.subscription_id)`

/** Received requests group by endpoint and this key: one timeline row each. */
export const RECEIVED_GROUP_KEY = `COALESCE(dedupe_key, 'request:' || id)`

/**
 * Received rows and captured requests, kept as counters per endpoint (`request_counts`, one row per
 * endpoint, '' for requests at no endpoint) so that the timeline's total and the top bar's count
 * read a few rows whatever the history holds. Triggers on `requests` keep them, so every connection
 * that writes or prunes (another process on the folder, retention, Clear history) moves them in its
 * own transaction. A received row is a group (RECEIVED_GROUP_KEY): request `q` starts one when it is
 * received and no other received request of its endpoint has its dedupe key (a keyless request is
 * a group of its own), and ends one on the same terms. One index probe (requests_by_dedupe_key;
 * on PostgreSQL requests_received_groups, REQUEST_GROUPS_INDEX_POSTGRES).
 * Written into a migration: a change to these definitions needs a migration that rebuilds them.
 */
// The same statements on both store engines; only how request `p` is matched to `q`'s endpoint
// differs. SQLite's `IS` finds the index either way. PostgreSQL cannot look up an index by
// `IS NOT DISTINCT FROM` (schemas 12 to 25 spelt it so, 'postgres-scan': every captured request
// read the whole table), so from schema 26 ('postgres') the probe is one of two, the endpoint NULL
// (`IS NULL`) or not (`=`): each an index probe, the other never run.
// From schema 32 a data folder's requests_by_dedupe_key keeps its keys COLLATE NOCASE
// ('sqlite-nocase'; engine-spelling.ts, sameDedupeKey): the probe matches case-blind, then exactly.
type Dialect = StoreKind | 'postgres-scan' | 'sqlite-nocase'
// `other` says which requests p of the group are not `q`'s own: a row trigger's row by its id, or
// the rows a statement trigger counts (REQUEST_COUNTS_POSTGRES_STATEMENTS), whose probe ends in
// OFFSET 0: a statement's probe runs once per group, and PostgreSQL 18 may plan an EXISTS run many
// times as one hash of every received request (a read of the whole table per statement, chosen
// when the plan was made on a small table); an EXISTS with an OFFSET is left a probe by index.
const otherOfGroup = (q: string, sameEndpoint: string, other: string, sameKey = `p.dedupe_key = ${q}.dedupe_key`) => `EXISTS (
    SELECT 1 FROM requests p WHERE ${receivedRequest('p')} AND ${sameEndpoint} AND ${sameKey} AND ${other}
  )`
const groupTaken = (q: string, dialect: Dialect, other = `p.id <> ${q}.id`) =>
  dialect === 'postgres'
    ? `(CASE WHEN ${q}.endpoint_id IS NULL THEN ${otherOfGroup(q, 'p.endpoint_id IS NULL', other)} ELSE ${otherOfGroup(q, `p.endpoint_id = ${q}.endpoint_id`, other)} END)`
    : otherOfGroup(
        q,
        `p.endpoint_id ${sameAs(dialect === 'postgres-scan' ? 'postgres' : 'sqlite')} ${q}.endpoint_id`,
        other,
        dialect === 'sqlite-nocase' ? sameDedupeKey('sqlite', 'p.dedupe_key', `${q}.dedupe_key`) : undefined,
      )
const startsReceivedRow = (q: string, dialect: Dialect = 'sqlite') => `(CASE WHEN ${receivedRequest(q)} AND (${q}.dedupe_key IS NULL OR NOT ${groupTaken(q, dialect)}) THEN 1 ELSE 0 END)`

const countIn = (dialect: Dialect = 'sqlite') => `INSERT INTO request_counts (endpoint_key, requests, received_rows) VALUES (COALESCE(NEW.endpoint_id, ''), 1, ${startsReceivedRow('NEW', dialect)})
    ON CONFLICT (endpoint_key) DO UPDATE SET requests = request_counts.requests + 1, received_rows = request_counts.received_rows + excluded.received_rows;`
const countOut = (dialect: Dialect = 'sqlite') => `UPDATE request_counts SET requests = requests - 1, received_rows = received_rows - ${startsReceivedRow('OLD', dialect)} WHERE endpoint_key = COALESCE(OLD.endpoint_id, '');`
/** The counters as the requests stored now make them, into `table` (and its `shard` column's value, on PostgreSQL from schema 31). */
const countsFill = (table: string, shard: string | null) => `INSERT INTO ${table} (endpoint_key, ${shard === null ? '' : 'shard, '}requests, received_rows)
    SELECT COALESCE(r.endpoint_id, ''), ${shard === null ? '' : `${shard}, `}COUNT(*),
           COUNT(DISTINCT CASE WHEN ${RECEIVED_REQUEST} THEN r.dedupe_key END) + SUM(CASE WHEN ${RECEIVED_REQUEST} AND r.dedupe_key IS NULL THEN 1 ELSE 0 END)
      FROM requests r GROUP BY 1;`
/** The counters as the requests stored now make them (a new table, or one made again: store-copy.ts). */
export const REQUEST_COUNTS_FILL = countsFill('request_counts', null)

export const REQUEST_COUNTS_SQL = `
  CREATE TABLE request_counts (
    endpoint_key  TEXT PRIMARY KEY,              -- the endpoint's id; '' = no endpoint
    requests      INTEGER NOT NULL DEFAULT 0,    -- captured requests
    received_rows INTEGER NOT NULL DEFAULT 0     -- timeline rows of received traffic
  ) WITHOUT ROWID;
  ${REQUEST_COUNTS_FILL}
  CREATE TRIGGER request_counts_insert AFTER INSERT ON requests BEGIN
    ${countIn()}
  END;
  CREATE TRIGGER request_counts_delete AFTER DELETE ON requests BEGIN
    ${countOut()}
  END;
  -- A change of endpoint, key or link: out of the old group, into the new (both exclude the row itself).
  CREATE TRIGGER request_counts_update AFTER UPDATE OF endpoint_id, dedupe_key, attempt_id ON requests BEGIN
    ${countOut()}
    ${countIn()}
  END;
`

/**
 * Schema 32 on a data folder: the counters' triggers made again with the group probe that walks
 * requests_by_dedupe_key as it is from then on (its keys COLLATE NOCASE); what they count is the same.
 */
export const REQUEST_COUNTS_TRIGGERS_NOCASE = `
  DROP TRIGGER request_counts_insert;
  DROP TRIGGER request_counts_delete;
  DROP TRIGGER request_counts_update;
  CREATE TRIGGER request_counts_insert AFTER INSERT ON requests BEGIN
    ${countIn('sqlite-nocase')}
  END;
  CREATE TRIGGER request_counts_delete AFTER DELETE ON requests BEGIN
    ${countOut('sqlite-nocase')}
  END;
  CREATE TRIGGER request_counts_update AFTER UPDATE OF endpoint_id, dedupe_key, attempt_id ON requests BEGIN
    ${countOut('sqlite-nocase')}
    ${countIn('sqlite-nocase')}
  END;
`

/** What the counters' function hands back from schema 20: the row itself, run before it changes. */
const RETURN_THE_ROW = `IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    RETURN NEW;`

/** What calls the counters' function on PostgreSQL (schema 15 drops and makes it again around a change of column types). */
export const REQUEST_COUNTS_POSTGRES_TRIGGER = `CREATE TRIGGER request_counts_follow AFTER INSERT OR DELETE OR UPDATE OF endpoint_id, dedupe_key, attempt_id ON requests
    FOR EACH ROW EXECUTE FUNCTION request_counts_follow();`

/** The counters' trigger function on PostgreSQL, for the three events; `returns` what it hands back (NULL after a row; the row itself before it, or the row is not written). */
const countsFunction = (create: 'CREATE' | 'CREATE OR REPLACE', returns: string, dialect: Dialect = 'postgres-scan') => `${create} FUNCTION request_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
      ${countOut(dialect)}
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      ${countIn(dialect)}
    END IF;
    ${returns}
  END
  $$;`

/** REQUEST_COUNTS_SQL on PostgreSQL: the same counters, one trigger function for the three events. */
export const REQUEST_COUNTS_POSTGRES = `
  CREATE TABLE request_counts (
    endpoint_key  TEXT PRIMARY KEY,
    requests      BIGINT NOT NULL DEFAULT 0,
    received_rows BIGINT NOT NULL DEFAULT 0
  );
  ${REQUEST_COUNTS_FILL}
  ${countsFunction('CREATE', 'RETURN NULL;')}
  ${REQUEST_COUNTS_POSTGRES_TRIGGER}
`

/**
 * The counters on PostgreSQL from schema 20: the same function run BEFORE each row changes. A row
 * trigger AFTER a statement runs only once the whole statement is done, so each row of a multi-row
 * INSERT, DELETE or UPDATE (an endpoint's duplicate arrivals pruned together, two arrivals of one key
 * in one INSERT) saw the others already changed, and a group was counted in or out twice or not at
 * all. A BEFORE row trigger sees the rows before it in the same statement changed and the rest not
 * yet, as SQLite's row triggers do: one row at a time, whatever the statement. (An INSERT that
 * ON CONFLICT skips its row has been counted: only `store copy` writes so, and it recounts.)
 */
export const REQUEST_COUNTS_POSTGRES_PER_ROW = `
  ${countsFunction('CREATE OR REPLACE', RETURN_THE_ROW)}
  DROP TRIGGER request_counts_follow ON requests;
  CREATE TRIGGER request_counts_follow BEFORE INSERT OR DELETE OR UPDATE OF endpoint_id, dedupe_key, attempt_id ON requests
    FOR EACH ROW EXECUTE FUNCTION request_counts_follow();
  DELETE FROM request_counts;
  ${REQUEST_COUNTS_FILL}
`


/**
 * The counters' function on PostgreSQL from schema 26: the same counts, each group's probe an index
 * lookup (requests_by_dedupe_key) instead of a read of every request. The counters are not
 * recounted: the old function counted the same, only slower.
 */
export const REQUEST_COUNTS_POSTGRES_INDEXED = countsFunction('CREATE OR REPLACE', RETURN_THE_ROW, 'postgres')

/**
 * The index the counters' probe finds a group by on PostgreSQL from schema 28: received requests
 * (no attempt) with a key, by endpoint and key, so every condition of the probe is an index
 * condition. The trigger function's statements keep one generic plan per connection, made after a
 * few rows and kept until the table is next analysed; planned on a nearly empty table, the probe
 * took requests_by_endpoint (endpoint and time) and filtered the key, reading every request of
 * the endpoint for each new one, which made a fresh store slower with every request it captured
 * (and `store copy` into one about ten times slower than without the trigger). Only this index
 * matches the probe on both columns, whatever the statistics say.
 */
export const REQUEST_GROUPS_INDEX_POSTGRES = `CREATE INDEX requests_received_groups ON requests(endpoint_id, dedupe_key) WHERE attempt_id IS NULL AND dedupe_key IS NOT NULL;`

/**
 * The counters on PostgreSQL from schema 30: an INSERT's and a DELETE's rows counted once per
 * statement, from the statement's rows as a set (a transition table), instead of a function call, a
 * probe and an upsert of the same counter row for every row. A group commit's captures are one
 * multi-row INSERT (engine-writer.ts), and retention deletes in batches: n rows of one endpoint were
 * n versions of its counter row, all under REQUESTS_WRITE_LOCK; now one per endpoint and statement.
 *
 * The same numbers as the row trigger before each row (REQUEST_COUNTS_POSTGRES_PER_ROW), which sees
 * the statement's earlier rows changed and the later ones not. Per group of endpoint and key:
 * - INSERT: its rows each start a received row in turn only while no other received request of the
 *   group is in the table, so the statement starts one exactly when one of its rows is received and
 *   no received request of the group is there that the statement did not insert (after the
 *   statement its rows are in the table: those of `new_rows` are left out by id). A keyless
 *   received row is a group of its own: each counts one. An attempt's own row counts none and is
 *   no group's other.
 * - DELETE: its rows end the group in turn only when no other received request is left, so the
 *   statement ends one exactly when one of its rows was received and no received request of the
 *   group is left after it. Keyless received rows each end their own.
 * An INSERT's rows that ON CONFLICT skips are in no transition table and are not counted (before,
 * they were; `store copy`, the only writer of such INSERTs, counts again at the end either way).
 * An UPDATE of a row's endpoint, key or link stays a row trigger before each row: a transition table
 * cannot go with UPDATE OF's column list, and without it every UPDATE of requests (an outcome, a
 * verdict's bookkeeping) would call the counters. One group probe per group of the statement
 * (requests_received_groups), one upsert per endpoint.
 */
const statementGroups = (rows: 'new_rows' | 'old_rows') => {
  const other = `${rows === 'new_rows' ? 'p.id NOT IN (SELECT o.id FROM new_rows o)' : 'TRUE'} OFFSET 0`
  return `SELECT COALESCE(g.endpoint_id, '') AS endpoint_key, SUM(g.requests)::bigint AS requests, SUM(g.received_rows)::bigint AS received_rows
      FROM (SELECT n.endpoint_id, n.dedupe_key, COUNT(*) AS requests,
                   CASE WHEN n.dedupe_key IS NULL THEN COUNT(*) FILTER (WHERE ${receivedRequest('n')})
                        WHEN bool_or(${receivedRequest('n')}) AND NOT ${groupTaken('n', 'postgres', other)} THEN 1
                        ELSE 0 END AS received_rows
              FROM ${rows} n GROUP BY n.endpoint_id, n.dedupe_key) g
     GROUP BY 1`
}
export const REQUEST_COUNTS_POSTGRES_STATEMENTS = `
  CREATE FUNCTION request_counts_follow_inserts() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO request_counts (endpoint_key, requests, received_rows)
    ${statementGroups('new_rows')}
    ON CONFLICT (endpoint_key) DO UPDATE SET requests = request_counts.requests + excluded.requests, received_rows = request_counts.received_rows + excluded.received_rows;
    RETURN NULL;
  END
  $$;
  CREATE FUNCTION request_counts_follow_deletes() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE request_counts c SET requests = c.requests - d.requests, received_rows = c.received_rows - d.received_rows
      FROM (${statementGroups('old_rows')}) d
     WHERE c.endpoint_key = d.endpoint_key;
    RETURN NULL;
  END
  $$;
  DROP TRIGGER request_counts_follow ON requests;
  CREATE TRIGGER request_counts_follow BEFORE UPDATE OF endpoint_id, dedupe_key, attempt_id ON requests
    FOR EACH ROW EXECUTE FUNCTION request_counts_follow();
  CREATE TRIGGER request_counts_follow_inserts AFTER INSERT ON requests
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION request_counts_follow_inserts();
  CREATE TRIGGER request_counts_follow_deletes AFTER DELETE ON requests
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION request_counts_follow_deletes();
`

/** Past this many group locks in one transaction, it takes REQUESTS_WRITE_LOCK whole instead (the server's lock table is shared and bounded). */
const MOST_GROUP_LOCKS = 256
/** The counter rows per endpoint on PostgreSQL: a connection adds to the one its server process picks. */
const COUNTER_SHARDS = 64
const SHARD = `CAST(pg_backend_pid() % ${COUNTER_SHARDS} AS SMALLINT)`
/** The lock key of request `q`'s received group, or NULL when it is in none (keyless: a group of its own; an attempt's). */
const groupLockKey = (q: string) => `(CASE WHEN ${receivedRequest(q)} AND ${q}.dedupe_key IS NOT NULL THEN COALESCE(${q}.endpoint_id, '') || ' ' || ${q}.dedupe_key END)`
const addToShard = (select: string) => `INSERT INTO request_count_shards (endpoint_key, shard, requests, received_rows)
    ${select}
    ON CONFLICT (endpoint_key, shard) DO UPDATE SET requests = request_count_shards.requests + excluded.requests, received_rows = request_count_shards.received_rows + excluded.received_rows;`

/**
 * The counters on PostgreSQL from schema 31: commits that capture run side by side. Until schema 30
 * every commit that wrote `requests` took REQUESTS_WRITE_LOCK first, so two processes' commits took
 * turns, each with its WAL flush under the lock, and two processes captured less than one. The
 * lock kept two things exact; each now has a way of its own:
 * - Two commits adding to one endpoint's counter row wait for each other's commit on that row. So
 *   the counters are kept in shards (`request_count_shards`, one row per endpoint and shard, the
 *   shard picked by the connection's server process), each change added to its connection's shard
 *   (a negative number for a row out), and `request_counts` is a view that sums them: every read
 *   of the counters reads what it read before. An upsert of several endpoints goes in their order,
 *   so two commits never wait on each other's rows in a circle.
 * - A received row (a group of endpoint and key) is started by the first received request of its
 *   group in the table. Two commits adding the same group at once would each see no other, and
 *   count it twice; one deleting while another adds, miss it. Each statement's trigger now takes
 *   the lock of every group its rows are in (REQUEST_GROUP_LOCKS, in order) before it probes: the
 *   second waits for the first's commit, then probes (each statement of a trigger function reads
 *   the commits made before it, on READ COMMITTED) and sees its row. Commits of other groups (every
 *   webhook has its own event id) do not wait at all.
 * Every such commit holds REQUESTS_WRITE_LOCK shared; a statement past MOST_GROUP_LOCKS groups in
 * its transaction takes it whole instead (one lock for a bulk write), and so do retention and a
 * scenario run's removal (LOCK_REQUESTS_WHOLE), which then take no group locks at all.
 * The numbers are those of schema 30's statements; the shards start as the old rows.
 */
export const REQUEST_COUNT_SHARDS_POSTGRES = `
  CREATE TABLE request_count_shards (
    endpoint_key  TEXT NOT NULL,
    shard         SMALLINT NOT NULL,
    requests      BIGINT NOT NULL DEFAULT 0,
    received_rows BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (endpoint_key, shard)
  );
  INSERT INTO request_count_shards (endpoint_key, shard, requests, received_rows) SELECT endpoint_key, 0, requests, received_rows FROM request_counts;
  DROP TABLE request_counts;
  CREATE VIEW request_counts AS
    SELECT endpoint_key, CAST(SUM(requests) AS BIGINT) AS requests, CAST(SUM(received_rows) AS BIGINT) AS received_rows
      FROM request_count_shards GROUP BY endpoint_key;

  CREATE FUNCTION request_groups_lock(keys TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    taken INTEGER := CAST(COALESCE(NULLIF(current_setting('${REQUEST_GROUP_LOCKS_TAKEN}', true), ''), '0') AS INTEGER);
  BEGIN
    IF taken < 0 THEN
      RETURN;
    END IF;
    IF taken + cardinality(keys) > ${MOST_GROUP_LOCKS} THEN
      PERFORM pg_advisory_xact_lock(CAST(${REQUESTS_WRITE_LOCK} AS BIGINT));
      PERFORM set_config('${REQUEST_GROUP_LOCKS_TAKEN}', '-1', true);
      RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock_shared(CAST(${REQUESTS_WRITE_LOCK} AS BIGINT));
    PERFORM pg_advisory_xact_lock(${REQUEST_GROUP_LOCKS}, s.h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(keys) AS k ORDER BY 1) s;
    PERFORM set_config('${REQUEST_GROUP_LOCKS_TAKEN}', CAST(taken + cardinality(keys) AS TEXT), true);
  END
  $$;

  CREATE OR REPLACE FUNCTION request_counts_follow_inserts() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM request_groups_lock(ARRAY(SELECT k FROM (SELECT ${groupLockKey('n')} AS k FROM new_rows n) g WHERE k IS NOT NULL));
    ${addToShard(`SELECT g.endpoint_key, ${SHARD}, g.requests, g.received_rows FROM (${statementGroups('new_rows')}) g ORDER BY 1`)}
    RETURN NULL;
  END
  $$;
  CREATE OR REPLACE FUNCTION request_counts_follow_deletes() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM request_groups_lock(ARRAY(SELECT k FROM (SELECT ${groupLockKey('n')} AS k FROM old_rows n) g WHERE k IS NOT NULL));
    ${addToShard(`SELECT d.endpoint_key, ${SHARD}, -d.requests, -d.received_rows FROM (${statementGroups('old_rows')}) d ORDER BY 1`)}
    RETURN NULL;
  END
  $$;
  -- An UPDATE of endpoint, key or link, before each row: out of the old group, into the new.
  CREATE OR REPLACE FUNCTION request_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM request_groups_lock(ARRAY(SELECT k FROM (VALUES (${groupLockKey('OLD')}), (${groupLockKey('NEW')})) AS g(k) WHERE k IS NOT NULL));
    ${addToShard(`SELECT COALESCE(OLD.endpoint_id, ''), ${SHARD}, -1, -${startsReceivedRow('OLD', 'postgres')}`)}
    ${addToShard(`SELECT COALESCE(NEW.endpoint_id, ''), ${SHARD}, 1, ${startsReceivedRow('NEW', 'postgres')}`)}
    RETURN NEW;
  END
  $$;
`

/** The counters made again from the requests the store holds (store-copy.ts), on either engine. */
export const requestCountsRefill = (kind: StoreKind): string =>
  kind === 'postgres' ? `DELETE FROM request_count_shards; ${countsFill('request_count_shards', '0')}` : `DELETE FROM request_counts; ${REQUEST_COUNTS_FILL}`

/** The table a change of the counters is written to: the shards on PostgreSQL (schema 31), the counters on SQLite. */
export const requestCountsTable = (kind: StoreKind): string => (kind === 'postgres' ? 'request_count_shards' : 'request_counts')
