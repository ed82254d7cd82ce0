import type { Database } from 'better-sqlite3'
import { REQUEST_COUNTS_SQL, REQUEST_COUNTS_POSTGRES, REQUEST_COUNTS_POSTGRES_INDEXED, REQUEST_COUNTS_POSTGRES_PER_ROW, REQUEST_COUNTS_POSTGRES_STATEMENTS, REQUEST_COUNTS_POSTGRES_TRIGGER, REQUEST_COUNT_SHARDS_POSTGRES, REQUEST_GROUPS_INDEX_POSTGRES, REQUEST_COUNTS_TRIGGERS_NOCASE } from './count-definitions'
import { REQUESTS_WRITE_LOCK } from './request-locks'
import { REQUEST_COMMIT_ORDER_BY_TRANSACTION } from './request-commit-order'
import { FEED_ORDER_POSTGRES, FEED_ORDER_SQLITE } from './feed-order'
import { StoreError } from './store-error'

export interface Migration {
  version: number
  name: string
  /** The step on SQLite. */
  sql: string
  /**
   * The same step on PostgreSQL: required after POSTGRES_BASELINE_VERSION (store/postgres-schema.ts),
   * whose one step stands for every migration up to it on a new team database.
   */
  postgres?: string
}

// Schema 14's backfill and indexes, in SQL both engines accept (see its migration for why).
const STORED_AT_BACKFILL = `
      UPDATE requests SET stored_at = COALESCE(
        (SELECT a.started_wall_at FROM attempts a WHERE a.id = requests.attempt_id),
        received_at);
      UPDATE events SET stored_at = COALESCE(
        (SELECT min(d.created_wall_at) FROM deliveries d WHERE d.event_id = events.id),
        created_at);
      CREATE INDEX requests_by_stored_at ON requests(stored_at);
      CREATE INDEX events_by_stored_at ON events(stored_at);
`

// Migration 21's tables on either engine: the same columns, times in BIGINT on PostgreSQL and its
// text compared byte for byte ("C"), as every other PostgreSQL table here.
function ACCOUNTS_SQL(time: string, text: string): string {
  return `
      CREATE TABLE accounts (
        id            TEXT${text} PRIMARY KEY,
        email         TEXT${text} NOT NULL,
        email_key     TEXT${text} NOT NULL UNIQUE,
        name          TEXT${text} NOT NULL,
        password_hash TEXT${text} NOT NULL,
        role          TEXT${text} NOT NULL,     -- viewer | editor | admin
        created_at    ${time} NOT NULL,
        disabled      INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE account_sessions (
        token_hash    TEXT${text} PRIMARY KEY,  -- SHA-256 of the cookie's value, hex
        account_id    TEXT${text} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at    ${time} NOT NULL,
        expires_at    ${time} NOT NULL,
        last_seen_at  ${time} NOT NULL
      );
      CREATE INDEX account_sessions_by_account ON account_sessions(account_id);
      CREATE TABLE account_links (
        token_hash    TEXT${text} PRIMARY KEY,  -- SHA-256 of the link's secret, hex
        kind          TEXT${text} NOT NULL,     -- setup (the first admin) | invite
        role          TEXT${text} NOT NULL,
        created_by    TEXT${text},              -- the admin who invited; NULL for the setup link
        created_at    ${time} NOT NULL,
        expires_at    ${time} NOT NULL
      );
`
}

// Migration 22's table on either engine, as migration 21's: a machine's API token. Its workspace
// came with migration 27, beside its role.
function API_TOKENS_SQL(time: string, text: string): string {
  return `
      CREATE TABLE api_tokens (
        id            TEXT${text} PRIMARY KEY,
        name          TEXT${text} NOT NULL,
        role          TEXT${text} NOT NULL,     -- viewer | editor | admin
        secret_hash   TEXT${text} NOT NULL UNIQUE, -- SHA-256 of the secret (hlk_…), hex; never the secret
        prefix        TEXT${text} NOT NULL,     -- the secret's first characters, for people to tell tokens apart
        created_by    TEXT${text} REFERENCES accounts(id) ON DELETE SET NULL, -- the admin; NULL from the command line
        created_at    ${time} NOT NULL,
        last_used_at  ${time},                  -- written at most once a minute
        revoked_at    ${time}                   -- NULL while it admits its holder
      );
`
}

// Migration 23's table on either engine (22 is the machine tokens'). at is wall-clock ms; detail_json
// is what changed with every secret replaced by a marker (store/audit.ts): never a secret.
function AUDIT_SQL(time: string, text: string): string {
  return `
      CREATE TABLE audit (
        id            TEXT${text} PRIMARY KEY,
        at            ${time} NOT NULL,
        actor_id      TEXT${text},              -- the account; NULL for local
        actor         TEXT${text} NOT NULL,     -- the account's address, or local
        via           TEXT${text} NOT NULL,     -- session | token | cli | app
        command       TEXT${text} NOT NULL,
        target_kind   TEXT${text},
        target_id     TEXT${text},
        summary       TEXT${text} NOT NULL,
        detail_json   TEXT${text} NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_by_at ON audit(at, id);
      CREATE INDEX audit_by_actor ON audit(actor, at);
`
}

// Migration 27 on either engine: workspaces, who belongs to which with what role, and the
// workspace of each definition and of each thing an account or a token does. Every existing row
// lands in `default`, and each account's role becomes its membership of `default`: from then on a
// membership, not accounts.role, says what a person may do (accounts.role is only what this
// migration read). Requests, events, deliveries and attempts belong through their endpoint or
// subscription, so the big tables get no column. No foreign key on the added columns: SQLite adds
// a column with a REFERENCES clause only with a NULL default, and a workspace is never deleted.
function WORKSPACES_SQL(time: string, text: string): string {
  const column = (table: string) => `ALTER TABLE ${table} ADD COLUMN workspace_id TEXT${text} NOT NULL DEFAULT 'default';`
  return `
      CREATE TABLE workspaces (
        id            TEXT${text} PRIMARY KEY,
        name          TEXT${text} NOT NULL UNIQUE,
        created_at    ${time} NOT NULL
      );
      INSERT INTO workspaces (id, name, created_at) VALUES ('default', 'default', 0);
      CREATE TABLE memberships (
        account_id    TEXT${text} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        workspace_id  TEXT${text} NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        role          TEXT${text} NOT NULL,     -- viewer | editor | admin, in that workspace
        created_at    ${time} NOT NULL,
        PRIMARY KEY (account_id, workspace_id)
      );
      CREATE INDEX memberships_by_workspace ON memberships(workspace_id);
      INSERT INTO memberships (account_id, workspace_id, role, created_at) SELECT id, 'default', role, created_at FROM accounts;
      ${column('endpoints')}
      ${column('subscriptions')}
      ${column('api_tokens')}
      ${column('audit')}
      ${column('account_links')}
      ${column('account_sessions')}
      CREATE INDEX endpoints_by_workspace ON endpoints(workspace_id);
      CREATE INDEX subscriptions_by_workspace ON subscriptions(workspace_id);
      CREATE INDEX audit_by_workspace ON audit(workspace_id, at, id);
`
}

function RULES_WORKSPACE_SQL(text: string): string {
  return `
      ALTER TABLE rules ADD COLUMN workspace_id TEXT${text} NOT NULL DEFAULT 'default';
      UPDATE rules SET workspace_id = (SELECT e.workspace_id FROM endpoints e WHERE e.id = rules.endpoint_id) WHERE endpoint_id IS NOT NULL;
`
}

// Each migration runs in its own transaction together with the bump of PRAGMA user_version, so
// a failure leaves the database exactly at the previous version.
// Bodies are BLOBs: raw bytes as received or sent, never re-serialised.
// Times are INTEGER milliseconds since the epoch on the clock that produced them.
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      -- receiver side ---------------------------------------------------------------
      CREATE TABLE endpoints (
        id            TEXT PRIMARY KEY,
        slug          TEXT NOT NULL UNIQUE,
        name          TEXT NOT NULL,
        scheme        TEXT,                      -- verify scheme id, NULL = no verification
        secrets_json  TEXT NOT NULL DEFAULT '[]',
        dedupe_json   TEXT,                      -- how the dedupe key is taken, NULL = none
        dedupe_window_ms INTEGER NOT NULL DEFAULT 86400000,
        body_limit    INTEGER NOT NULL DEFAULT 10485760,
        config_json   TEXT NOT NULL DEFAULT '{}',
        created_at    INTEGER NOT NULL
      );

      CREATE TABLE rules (
        id            TEXT PRIMARY KEY,
        endpoint_id   TEXT REFERENCES endpoints(id) ON DELETE CASCADE,  -- NULL = every endpoint
        position      INTEGER NOT NULL,
        enabled       INTEGER NOT NULL DEFAULT 1,
        definition_json TEXT NOT NULL,
        created_at    INTEGER NOT NULL
      );
      CREATE INDEX rules_by_endpoint ON rules(endpoint_id, position);

      CREATE TABLE requests (
        id            INTEGER PRIMARY KEY,
        endpoint_id   TEXT,                      -- NULL = unmatched path
        received_at   INTEGER NOT NULL,
        method        TEXT NOT NULL,
        path          TEXT NOT NULL,
        query         TEXT NOT NULL DEFAULT '',
        http_version  TEXT NOT NULL DEFAULT '1.1',
        headers_json  TEXT NOT NULL,             -- [[name, value], ...] in arrival order, duplicates kept
        body          BLOB,
        body_size     INTEGER NOT NULL,
        body_truncated INTEGER NOT NULL DEFAULT 0,
        remote_address TEXT,
        verify_valid  INTEGER,                   -- NULL = not verified
        verify_reason TEXT,
        verify_json   TEXT,
        dedupe_key    TEXT,
        duplicate_of  INTEGER REFERENCES requests(id),
        duplicate_number INTEGER,                -- 1 = first arrival, 2 = dup #2 …
        rule_id       TEXT,
        fault_json    TEXT,
        response_status INTEGER,
        response_headers_json TEXT,
        response_body BLOB,
        response_ms   REAL,
        attempt_id    INTEGER                    -- loop mode: the sender attempt that made it
      );
      CREATE INDEX requests_by_time ON requests(received_at);
      CREATE INDEX requests_by_endpoint ON requests(endpoint_id, received_at);
      CREATE INDEX requests_by_dedupe_key ON requests(endpoint_id, dedupe_key, received_at);
      CREATE INDEX requests_by_attempt ON requests(attempt_id) WHERE attempt_id IS NOT NULL;

      -- sender side -----------------------------------------------------------------
      CREATE TABLE subscriptions (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        url           TEXT NOT NULL,             -- '' when the target is one of our endpoints
        endpoint_slug TEXT,                      -- loop mode: deliver to this endpoint of ours
        scheme        TEXT NOT NULL,
        secrets_json  TEXT NOT NULL DEFAULT '[]',
        policy_json   TEXT NOT NULL,
        headers_json  TEXT NOT NULL DEFAULT '{}',
        event_id_header TEXT,
        envelope      TEXT NOT NULL DEFAULT 'event' CHECK (envelope IN ('event', 'payload')),  -- body shape sent
        paused        INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );

      CREATE TABLE events (
        id            TEXT PRIMARY KEY,          -- event_id, UUID v4
        event_type    TEXT NOT NULL,
        payload       BLOB NOT NULL,             -- the payload's JSON bytes; the body sent is built from them per subscription envelope
        created_at    INTEGER NOT NULL
      );
      CREATE INDEX events_by_time ON events(created_at);

      CREATE TABLE deliveries (
        id            INTEGER PRIMARY KEY,
        event_id      TEXT NOT NULL REFERENCES events(id),
        subscription_id TEXT NOT NULL REFERENCES subscriptions(id),
        status        TEXT NOT NULL CHECK (status IN ('pending', 'retrying', 'succeeded', 'failed')),
        attempts      INTEGER NOT NULL DEFAULT 0,
        last_status_code INTEGER,
        last_attempt_at INTEGER,
        next_attempt_at INTEGER,                 -- NULL = nothing scheduled
        in_flight     INTEGER NOT NULL DEFAULT 0, -- an attempt started and not yet recorded
        interrupted   INTEGER NOT NULL DEFAULT 0, -- attempts cut short by a crash (not counted toward max)
        faults_json   TEXT,                      -- sending-side faults asked for
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
      CREATE INDEX deliveries_by_subscription ON deliveries(subscription_id, created_at);
      CREATE INDEX deliveries_by_status ON deliveries(status, created_at);
      CREATE INDEX deliveries_by_event ON deliveries(event_id);

      CREATE TABLE attempts (
        id            INTEGER PRIMARY KEY,
        delivery_id   INTEGER NOT NULL REFERENCES deliveries(id),
        n             INTEGER NOT NULL,
        started_at    INTEGER NOT NULL,
        duration_ms   REAL,
        outcome       TEXT NOT NULL,             -- http_503, timeout, connection_refused, reset, dns, dropped, interrupted; in_flight while running
        status_code   INTEGER,
        url           TEXT,                      -- where it went (loop mode: the endpoint's URL then)
        request_headers_json TEXT,
        response_headers_json TEXT,
        response_body BLOB,
        error         TEXT,
        fault_json    TEXT,                      -- sending-side fault applied to this attempt
        decision      TEXT NOT NULL,             -- succeeded | retry | failed; pending while running
        next_attempt_at INTEGER,
        UNIQUE (delivery_id, n)
      );

      -- scenarios -------------------------------------------------------------------
      CREATE TABLE scenarios (
        id            TEXT PRIMARY KEY,
        name          TEXT NOT NULL,
        definition_json TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'receiver marks: bounded dedupe keys, bodies not inspected, refusal reasons',
    sql: `
      ALTER TABLE requests ADD COLUMN dedupe_key_mark TEXT;      -- too_long | not_utf8: dedupe_key is sha256:<hex> of the key
      ALTER TABLE requests ADD COLUMN dedupe_key_bytes INTEGER;  -- the marked key's length in bytes
      ALTER TABLE requests ADD COLUMN not_inspected TEXT;        -- why the body's fields were not read, NULL = read or not needed
      ALTER TABLE requests ADD COLUMN refused_reason TEXT;       -- why the receiver itself refused it (413, 503 …)
    `,
  },
  {
    version: 3,
    name: 'subscriptions.provider',
    // The provider pack a subscription delivers as (shared/providers/): its headers, body
    // envelope and content type per attempt. NULL = Hookloop's own shape (the envelope column).
    sql: `ALTER TABLE subscriptions ADD COLUMN provider TEXT;`,
  },
  {
    version: 4,
    name: 'retention: settings, and an index for pruning requests that duplicates point at',
    sql: `
      -- Deleting a request checks requests.duplicate_of (a foreign key): without an index that is
      -- a scan of every request per deleted row. Pruning also clears the pointers of survivors.
      CREATE INDEX requests_by_duplicate_of ON requests(duplicate_of) WHERE duplicate_of IS NOT NULL;

      -- Settings of this data folder (retention …), one JSON value per key.
      CREATE TABLE settings (
        key           TEXT PRIMARY KEY,
        value_json    TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'forward legs: each request sent on to a target, and its answer',
    sql: `
      CREATE TABLE forward_legs (
        id            INTEGER PRIMARY KEY,
        request_id    INTEGER NOT NULL,          -- requests.id of the captured request it carries
        kind          TEXT NOT NULL,             -- forward | forward-copy | resend
        target_url    TEXT NOT NULL,
        sent_at       INTEGER NOT NULL,
        request_method TEXT NOT NULL,            -- exactly what was sent
        request_url   TEXT NOT NULL,
        request_headers_json TEXT NOT NULL,      -- [[name, value], ...] in the order sent
        request_body  BLOB NOT NULL,
        response_status INTEGER,                 -- NULL: the target did not answer
        response_headers_json TEXT NOT NULL DEFAULT '[]',
        response_body BLOB,                      -- the first body_limit bytes of the answer
        response_body_size INTEGER NOT NULL DEFAULT 0,
        response_body_truncated INTEGER NOT NULL DEFAULT 0,
        latency_ms    INTEGER,
        outcome       TEXT NOT NULL,             -- answered | refused | reset | unreachable | timed_out | aborted | error
        error         TEXT                       -- the reason in words, NULL when answered
      );
      CREATE INDEX forward_legs_by_request ON forward_legs(request_id, id);
      -- Not a foreign key: a leg may be stored before its request's row is committed (the capture
      -- writer commits in groups). Pruning or clearing a request takes its legs with it.
      CREATE TRIGGER forward_legs_follow_requests AFTER DELETE ON requests
      BEGIN
        DELETE FROM forward_legs WHERE request_id = OLD.id;
      END;
    `,
  },
  {
    version: 6,
    name: 'forward legs point at the captured body instead of storing it again',
    sql: `
      -- 1: the leg sent the captured request's body, whole; request_body is empty and the bytes
      -- are requests.body of request_id (a forward sends the body it received, byte for byte).
      ALTER TABLE forward_legs ADD COLUMN request_body_captured INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 7,
    name: 'simulations: the clock each delivery ran on, and wall times beside simulated ones',
    sql: `
      -- A simulation: a run on a virtual or scaled clock (Try the loop, a sender session, a scenario
      -- run). Its rows are on its own clock; started_at is on that clock, started_wall_at on the wall.
      CREATE TABLE simulations (
        id            TEXT PRIMARY KEY,
        mode          TEXT NOT NULL CHECK (mode IN ('virtual', 'scaled')),
        scale         REAL NOT NULL DEFAULT 1,
        started_at    INTEGER NOT NULL,
        started_wall_at INTEGER NOT NULL,
        label         TEXT NOT NULL
      );
      CREATE INDEX simulations_by_start ON simulations(started_wall_at);

      -- NULL: sent on the wall clock (the real clock), so created_at and the attempts' times are wall times.
      ALTER TABLE deliveries ADD COLUMN simulation_id TEXT REFERENCES simulations(id);
      -- Wall time the delivery was made, whatever its clock: "the last 24 h" and retention read it.
      ALTER TABLE deliveries ADD COLUMN created_wall_at INTEGER;
      UPDATE deliveries SET created_wall_at = created_at;
      -- The timeline's clock filter walks this index (NULL = wall rows) newest first, never the table.
      CREATE INDEX deliveries_by_simulation ON deliveries(simulation_id, id);
      CREATE INDEX deliveries_by_wall_age ON deliveries(created_wall_at);
      -- A subscription's last 24 h of wall time (its failure rate), read without its older history.
      -- It replaces deliveries_by_subscription (subscription_id, created_at) rather than sitting
      -- beside it: every index on deliveries is paid on every publish.
      DROP INDEX deliveries_by_subscription;
      CREATE INDEX deliveries_by_subscription_wall ON deliveries(subscription_id, created_wall_at);

      -- Wall time an attempt started: beside started_at (on the delivery's clock) where they differ.
      ALTER TABLE attempts ADD COLUMN started_wall_at INTEGER;
    `,
  },
  {
    version: 8,
    name: 'timeline reads that stay flat as the store grows: received groups and event id search',
    sql: `
      -- Requests by group (endpoint, dedupe key) in arrival order, now with attempt_id: counting
      -- the timeline's received rows (attempt_id IS NULL) reads this index alone, never the rows.
      -- It replaces the index of the same name without attempt_id rather than sitting beside it:
      -- every index on requests is paid on every capture.
      DROP INDEX requests_by_dedupe_key;
      CREATE INDEX requests_by_dedupe_key ON requests(endpoint_id, dedupe_key, received_at, attempt_id);
      -- Search by event id: the ids that start with the text typed, in any ASCII case.
      CREATE INDEX requests_by_key_nocase ON requests(dedupe_key COLLATE NOCASE) WHERE dedupe_key IS NOT NULL;
      CREATE INDEX deliveries_by_event_nocase ON deliveries(event_id COLLATE NOCASE);
    `,
  },
  {
    version: 9,
    name: 'endpoints made at the old 10 MiB default take the new 32 MiB default',
    sql: `
      -- The default body limit was 10 MiB, below the 25 MB GitHub and GitLab may send. An endpoint
      -- made without a limit stored the default's value, so it is raised with the default; the app
      -- has no field for the limit, and a config file that names one sets it again on load.
      UPDATE endpoints SET body_limit = 33554432 WHERE body_limit = 10485760;
    `,
  },
  {
    version: 10,
    name: 'subscriptions.api_version',
    // The provider API version a subscription delivers (Stripe's api_version, Shopify's
    // X-Shopify-API-Version …): one its pack lists. NULL = no provider, or one without versions.
    // A provider subscription made before this column follows its pack's default version.
    sql: `ALTER TABLE subscriptions ADD COLUMN api_version TEXT;`,
  },
  {
    version: 11,
    name: 'deliveries.claimed_by, deliveries.lease_until',
    // Who holds a delivery's attempt and until when (wall ms): a process claims a due delivery in
    // one conditional update before it sends, so two processes on one store never send it both;
    // a claim whose lease ran out (its process died) is taken over by another (store/deliveries.ts).
    sql: `
      ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
      ALTER TABLE deliveries ADD COLUMN lease_until INTEGER;
    `,
    postgres: `
      ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
      ALTER TABLE deliveries ADD COLUMN lease_until BIGINT;
    `,
  },
  {
    version: 12,
    name: 'request_counts: received rows and captured requests kept as counters per endpoint; the NOCASE index of event ids only for ids with a capital',
    // Counting them read every request (0.5–1 s per million); the triggers keep the counters in
    // every writer's transaction (count-definitions.ts says what they count).
    // Every index on deliveries is written on every publish: a second index over the random event
    // ids cost publishing about a fifth of its rate. Lower-case ids (Hookloop's own UUIDs) are
    // searched on deliveries_by_event (store/prefix-search.ts), so only the others need NOCASE.
    sql: `${REQUEST_COUNTS_SQL}
      DROP INDEX deliveries_by_event_nocase;
      CREATE INDEX deliveries_by_event_with_capitals ON deliveries(event_id COLLATE NOCASE) WHERE event_id <> lower(event_id);
    `,
    postgres: `${REQUEST_COUNTS_POSTGRES}
      DROP INDEX deliveries_by_event_nocase;
      CREATE INDEX deliveries_by_event_with_capitals ON deliveries(lower(event_id)) WHERE event_id <> lower(event_id);
    `,
  },
  {
    version: 13,
    name: 'deliveries.consumer_event_id: the id the consumer knows the event by',
    // A delivery made as a provider carries the event under that provider's id (Stripe's evt_… in
    // the body, GitHub's X-GitHub-Delivery …), which people copy from their app's log: kept beside
    // Hookloop's own id so the timeline, the lists and search find the row by it. NULL = the same
    // as event_id, or no provider; deliveries made before this column have none. Its index holds
    // only the deliveries that have one (a delivery without a provider writes no entry).
    sql: `
      ALTER TABLE deliveries ADD COLUMN consumer_event_id TEXT;
      CREATE INDEX deliveries_by_consumer_id_nocase ON deliveries(consumer_event_id COLLATE NOCASE) WHERE consumer_event_id IS NOT NULL;
    `,
    postgres: `
      ALTER TABLE deliveries ADD COLUMN consumer_event_id TEXT;
      CREATE INDEX deliveries_by_consumer_id_nocase ON deliveries(lower(consumer_event_id)) WHERE consumer_event_id IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: 'stored_at: the wall time each request and event was stored, whatever clock stamped it',
    // received_at (requests) and created_at (events) are on the clock that produced them: a
    // simulation's for the loop's requests and a simulation's events, which may be months away
    // from now (a scenario's clock.start). Retention's ages and `requests --since` are wall
    // times: they read stored_at. NULL only for rows written by hand outside Hookloop; such rows
    // are not aged (a size limit still prunes them).
    // Backfill: real traffic was stamped on the wall clock; a request linked to an attempt was
    // stored when its attempt started on the wall (started_wall_at, known since schema 7), else
    // at received_at (all there is). An event was stored with its first delivery
    // (created_wall_at), else at created_at. The backfill (STORED_AT_BACKFILL) is SQL both
    // engines accept; it does not move request_counts (its triggers fire on endpoint_id,
    // dedupe_key and attempt_id only).
    // The pruning of lone events reads events by stored_at (events_by_time stays: the polling
    // feed's updated_since is on the event's created_at).
    sql: `
      ALTER TABLE requests ADD COLUMN stored_at INTEGER;
      ALTER TABLE events ADD COLUMN stored_at INTEGER;
      ${STORED_AT_BACKFILL}
    `,
    postgres: `
      ALTER TABLE requests ADD COLUMN stored_at BIGINT;
      ALTER TABLE events ADD COLUMN stored_at BIGINT;
      ${STORED_AT_BACKFILL}
    `,
  },
  {
    version: 15,
    name: 'PostgreSQL compares text byte by byte, as SQLite does',
    // SQLite compares TEXT byte by byte (BINARY) unless told NOCASE; PostgreSQL compares by the
    // database's locale, so 'ab-c' and 'abc' sort as the server's language says and a prefix range
    // (store/prefix-search.ts) may miss or take in ids. Every text column of a team store is
    // COLLATE "C": the same order and ranges on both engines whatever locale the server was made
    // with, and lower() folds ASCII letters only, as NOCASE does (store/postgres-dialect.ts).
    // Indexes on the columns are rebuilt by PostgreSQL; the counters' trigger names columns of
    // requests, so it is made again around the change. Nothing to do on SQLite.
    sql: `SELECT 1;`,
    postgres: `
      DROP TRIGGER request_counts_follow ON requests;
      DO $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT col.table_name, col.column_name FROM information_schema.columns col
                   JOIN information_schema.tables t ON t.table_schema = col.table_schema AND t.table_name = col.table_name AND t.table_type = 'BASE TABLE'
                  WHERE col.table_schema = current_schema() AND col.data_type = 'text'
                    AND col.table_name <> 'hookloop_schema'
        LOOP
          EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE TEXT COLLATE "C"', c.table_name, c.column_name);
        END LOOP;
      END $$;
      ${REQUEST_COUNTS_POSTGRES_TRIGGER}
    `,
  },
  {
    version: 16,
    name: 'simulations.owner: the engine whose clock a simulation runs on',
    // Several engines may share a store (a `listen` on the wall clock beside a scenario run on a
    // simulated one). A simulation's deliveries are due on its own clock, which only the engine
    // that runs it keeps: the others leave them alone (store/deliveries.ts, `due`). owner names
    // that engine (host:pid:sender, as a delivery's claim does); NULL once the simulation ended
    // (its engine closed, or its process was found gone): what it left continues on the wall
    // clock. Simulations made before this column have none: they ended with their engines.
    sql: `ALTER TABLE simulations ADD COLUMN owner TEXT;`,
    postgres: `ALTER TABLE simulations ADD COLUMN owner TEXT COLLATE "C";`,
  },
  {
    version: 17,
    name: 'rules.revision: an edit names the revision it was made on',
    // Two windows, two processes or an agent may edit one rule at once. Each change of a rule's
    // definition counts up its revision; an edit made on an older revision than the store's is
    // refused as a conflict (receiver/definitions.ts) instead of silently undoing the other edit.
    sql: `ALTER TABLE rules ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;`,
    postgres: `ALTER TABLE rules ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 18,
    name: 'deliveries by wall age are read per subscription',
    // Every index on deliveries has a page rewritten by every publish. The reads by wall age
    // across subscriptions (the newest-first list, `--since`, retention by age and the oldest
    // settled delivery) walk deliveries_by_subscription_wall once per subscription and merge
    // those few ordered streams (store/wall-age-reads.ts), so deliveries_by_wall_age goes.
    sql: `DROP INDEX IF EXISTS deliveries_by_wall_age;`,
    postgres: `DROP INDEX IF EXISTS deliveries_by_wall_age;`,
  },
  {
    version: 19,
    name: 'request_schema_verdicts: each captured body held against its provider\'s schema',
    // Judged after the request is answered (receiver/schema-verdicts.ts), so a row comes later than
    // its request's, on the same writer. The first problem has columns of its own (lists, filters);
    // every problem (at most 20) is in problems_json. Not a foreign key, as forward_legs: pruning or
    // clearing a request takes its verdict with it.
    sql: `
      CREATE TABLE request_schema_verdicts (
        request_id    INTEGER PRIMARY KEY,
        verdict       TEXT NOT NULL,             -- valid | invalid | no-schema
        source        TEXT,                      -- the schema's source and its version, in words
        version       TEXT,                      -- the provider's API version or document
        schema_name   TEXT,                      -- the webhook's or topic's schema in the source
        pointer       TEXT,                      -- invalid: the first problem's JSON pointer
        expected      TEXT,
        got           TEXT,
        schema_says   TEXT,
        problems_json TEXT NOT NULL DEFAULT '[]',
        reason        TEXT,                      -- no-schema: why
        checked_at    INTEGER NOT NULL
      );
      CREATE INDEX request_schema_verdicts_by_verdict ON request_schema_verdicts(verdict, request_id);
      CREATE TRIGGER request_schema_verdicts_follow_requests AFTER DELETE ON requests
      BEGIN
        DELETE FROM request_schema_verdicts WHERE request_id = OLD.id;
      END;
    `,
    postgres: `
      CREATE TABLE request_schema_verdicts (
        request_id    BIGINT PRIMARY KEY,
        verdict       TEXT COLLATE "C" NOT NULL,
        source        TEXT COLLATE "C",
        version       TEXT COLLATE "C",
        schema_name   TEXT COLLATE "C",
        pointer       TEXT COLLATE "C",
        expected      TEXT COLLATE "C",
        got           TEXT COLLATE "C",
        schema_says   TEXT COLLATE "C",
        problems_json TEXT COLLATE "C" NOT NULL DEFAULT '[]',
        reason        TEXT COLLATE "C",
        checked_at    BIGINT NOT NULL
      );
      CREATE INDEX request_schema_verdicts_by_verdict ON request_schema_verdicts(verdict, request_id);
      CREATE FUNCTION request_schema_verdicts_follow_requests() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM request_schema_verdicts WHERE request_id = OLD.id;
        RETURN OLD;
      END $$;
      CREATE TRIGGER request_schema_verdicts_follow_requests AFTER DELETE ON requests
        FOR EACH ROW EXECUTE FUNCTION request_schema_verdicts_follow_requests();
    `,
  },
  {
    version: 20,
    name: "PostgreSQL's request counters follow each row as it changes, in any statement",
    // The counters' trigger ran AFTER each row, which PostgreSQL does once the whole statement is
    // done: a statement of several rows of one group (an endpoint's duplicate arrivals deleted
    // together, a batch insert) counted the group wrongly. Run BEFORE each row, as SQLite's do
    // (count-definitions.ts, REQUEST_COUNTS_POSTGRES_PER_ROW), and count again from the rows.
    // Nothing to do on SQLite, whose row triggers always ran a row at a time.
    sql: `SELECT 1;`,
    postgres: REQUEST_COUNTS_POSTGRES_PER_ROW,
  },
  {
    version: 21,
    name: 'accounts: the people who sign in to a served Hookloop, their sessions and one-time links',
    // Secrets are never stored: a password as its Argon2id hash, a session
    // and a one-time link as the SHA-256 of the random value its holder keeps (a leaked table
    // admits nobody). email_key is the address in lower case: unique whatever case it is typed in.
    sql: ACCOUNTS_SQL('INTEGER', ''),
    postgres: ACCOUNTS_SQL('BIGINT', ' COLLATE "C"'),
  },
  {
    version: 22,
    name: 'api_tokens: the tokens machines (CI, scripts, agents) use on a served Hookloop, each with a role',
    // As with sessions, only the SHA-256 of a token's secret is kept: the table admits nobody. A
    // revoked token keeps its row (revoked_at), so the list still says who it was and when it went.
    sql: API_TOKENS_SQL('INTEGER', ''),
    postgres: API_TOKENS_SQL('BIGINT', ' COLLATE "C"'),
  },
  {
    version: 23,
    name: 'audit: who changed what, and when',
    // Every change made through a command, and the account events that are not commands. The
    // detail is redacted before it is written (store/audit.ts): a leaked table holds no secret.
    sql: AUDIT_SQL('INTEGER', ''),
    postgres: AUDIT_SQL('BIGINT', ' COLLATE "C"'),
  },
  {
    version: 24,
    name: 'events.commit_seq: the order events were committed, which the polling feed pages by',
    // The feed's cursor continues after a position, so a row that becomes visible later with a
    // lower position would be skipped forever. On a team's PostgreSQL several processes publish at
    // once and commit in any order: an id, a timestamp or a sequence's nextval taken while the
    // transaction runs is not commit order. So the number is taken at commit time under a lock
    // every publisher takes (EVENTS_COMMIT_LOCK, feed-order.ts): each event's number is the highest
    // committed one plus one, read under the lock, and the commit that took it is visible before
    // the next holder reads. Whatever a reader's snapshot, the numbers it sees are a prefix of
    // the committed ones (gaps only where a holder rolled back), and a cursor skips nothing.
    // On SQLite one writer at a time commits the file, so the same rule (highest plus one, given
    // at insert by a trigger) is commit order too; existing events keep their rowid, the order
    // the feed read before. A row inserted with its number (store copy) keeps it.
    sql: FEED_ORDER_SQLITE,
    postgres: FEED_ORDER_POSTGRES,
  },
  {
    version: 25,
    name: 'requests.commit_order: the order captured requests were committed in, on a team\'s PostgreSQL',
    // Why (host/timeline-watch.ts): processes number requests from blocks of the sequence taken
    // ahead, so a row with a low id can commit after many higher ones; a reader that follows ids
    // misses it. (Until schema 31, which numbers them by transaction instead: request-commit-order.ts.)
    // Every transaction that inserts a request takes REQUESTS_WRITE_LOCK before its
    // first row is numbered here (this trigger fires before the counters' one, whose row locks it
    // must not hold while it waits) and holds it until its commit is visible, so these numbers
    // become visible in order: a reader that has seen n has seen, or will never see, every lower one.
    // A data folder's ids are claimed in small blocks given up within 100 ms (id-source.ts): there the
    // column stays empty and the watch keeps its bounded look-back.
    sql: 'ALTER TABLE requests ADD COLUMN commit_order INTEGER;',
    postgres: `
      ALTER TABLE requests ADD COLUMN commit_order BIGINT;
      CREATE SEQUENCE requests_commit_order;
      CREATE INDEX requests_by_commit_order ON requests (commit_order);
      CREATE FUNCTION requests_number_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(${REQUESTS_WRITE_LOCK});
        NEW.commit_order := nextval('requests_commit_order');
        RETURN NEW;
      END $$;
      CREATE TRIGGER request_a_commit_order BEFORE INSERT ON requests FOR EACH ROW EXECUTE FUNCTION requests_number_commit();`,
  },
  {
    version: 26,
    name: "PostgreSQL's request counters find a request's group by index",
    // The counters' function matched the endpoint with IS NOT DISTINCT FROM, SQLite's `IS`
    // carried over, which PostgreSQL cannot look up an index by: each captured request read the
    // whole requests table, inside the transaction that holds the requests' write lock. Now it
    // asks for a NULL endpoint or an equal one, each an index probe (count-definitions.ts,
    // REQUEST_COUNTS_POSTGRES_INDEXED). The same counts, so the counters stay as they are.
    // Nothing to do on SQLite, whose `IS` uses the index.
    sql: `SELECT 1;`,
    postgres: REQUEST_COUNTS_POSTGRES_INDEXED,
  },
  {
    version: 27,
    name: 'workspaces: endpoints, subscriptions, tokens, invites, sessions and the audit belong to one; roles are per workspace',
    // Everything there was is the `default` workspace, and each account a member of it with the
    // role it had (WORKSPACES_SQL says why accounts.role is no longer read after this step).
    sql: WORKSPACES_SQL('INTEGER', ''),
    postgres: WORKSPACES_SQL('BIGINT', ' COLLATE "C"'),
  },
  {
    version: 28,
    name: "PostgreSQL's request counters probe a group by an index of their own",
    // Schema 26's probe could still read a whole endpoint's requests for each new one: the trigger
    // function's plan, made once per connection on a table with a few rows, took the endpoint's
    // time index and filtered the key (count-definitions.ts, REQUEST_GROUPS_INDEX_POSTGRES).
    // Nothing to do on SQLite, whose planner takes the index with both columns.
    sql: `SELECT 1;`,
    postgres: REQUEST_GROUPS_INDEX_POSTGRES,
  },
  {
    version: 29,
    name: 'rules.workspace_id: a rule for every endpoint belongs to a workspace and acts on its endpoints only',
    // Before, a rule for every endpoint (endpoint_id NULL) acted on every workspace's endpoints.
    // Now each belongs to one: those there were to `default`. An endpoint's rule is its endpoint's
    // workspace's, written here too, so the siblings a rule is ordered among are one statement's
    // (endpoint and workspace) for either kind. A breakpoint for every endpoint names its
    // workspace in its entry of the settings' list (store/breakpoints.ts): absent is `default`.
    sql: RULES_WORKSPACE_SQL(''),
    postgres: RULES_WORKSPACE_SQL(' COLLATE "C"'),
  },
  {
    version: 30,
    name: "PostgreSQL's request counters follow an INSERT's and a DELETE's rows once per statement",
    // A group commit's captures are one INSERT of many rows and retention deletes in batches, but the
    // counters' trigger ran for each row: a call, a probe and an upsert of the same counter row per
    // captured request, under the requests' write lock. Now one statement trigger for each of the
    // two counts the statement's rows as a set, the same numbers (count-definitions.ts,
    // REQUEST_COUNTS_POSTGRES_STATEMENTS); an UPDATE of endpoint, key or link stays row by row.
    // The counters stay as they are. Nothing to do on SQLite, whose triggers are row triggers only.
    sql: `SELECT 1;`,
    postgres: REQUEST_COUNTS_POSTGRES_STATEMENTS,
  },
  {
    version: 31,
    name: "commits that capture on a team's PostgreSQL run side by side: counters in shards, groups locked one by one, requests numbered by transaction",
    // Two serve processes on one database captured less than one: every commit that wrote requests
    // took REQUESTS_WRITE_LOCK whole, for the counters and for commit_order. Now the counters are
    // kept in shards behind a view of the same name, each group's count is kept exact by a lock of
    // its own (count-definitions.ts, REQUEST_COUNT_SHARDS_POSTGRES), and a request is numbered by
    // its transaction, read below the oldest one still running (request-commit-order.ts). Existing
    // numbers are lower than every new one. Nothing to do on SQLite, where one writer commits at a time.
    sql: `SELECT 1;`,
    postgres: `${REQUEST_COUNT_SHARDS_POSTGRES}
      ${REQUEST_COMMIT_ORDER_BY_TRANSACTION}`,
  },
  {
    version: 32,
    name: "a data folder's dedupe keys in one index: requests_by_dedupe_key case-blind, requests_by_key_nocase gone",
    // Every captured request with a key went into two indexes in the order of random keys (the
    // dedupe probe's, and the search's case-blind one): the second cost a capture about a tenth of
    // its CPU (docs/BENCHMARKS.md, "The receiver's keys in one index"). Now the probe's index keeps
    // the key COLLATE NOCASE, each probe matching case-blind and then exactly
    // (engine-spelling.ts, sameDedupeKey), and the search reads the same index endpoint by endpoint.
    // The counters' triggers are made again with the new probe. Nothing to do on PostgreSQL, whose
    // search index is on lower(dedupe_key) and whose probes keep their own index.
    sql: `DROP INDEX requests_by_key_nocase;
      DROP INDEX requests_by_dedupe_key;
      CREATE INDEX requests_by_dedupe_key ON requests(endpoint_id, dedupe_key COLLATE NOCASE, received_at, attempt_id);
      ${REQUEST_COUNTS_TRIGGERS_NOCASE}`,
    postgres: `SELECT 1;`,
  },
]

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Brings the database to LATEST_SCHEMA_VERSION; refuses one written by a newer Hookloop. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations[migrations.length - 1]?.version ?? 0
  const current = schemaVersion(db)
  if (current > latest) {
    throw new StoreError(
      'newer_schema',
      `this database was written by a newer Hookloop (schema version ${current}; this version knows up to ${latest}). Update Hookloop, or open another data folder.`,
    )
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue
    const apply = db.transaction(() => {
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    })
    try {
      apply()
    } catch (error) {
      throw new StoreError(
        'migration_failed',
        `migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}. The database is left at schema version ${schemaVersion(db)}; nothing was changed by the failed step.`,
        { cause: error },
      )
    }
  }
  return schemaVersion(db)
}
