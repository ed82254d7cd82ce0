// events.commit_seq, the order events were committed in (migration 24), on both engines. The
// polling feed pages by it (store/feed.ts): a cursor continues strictly after a position, so the
// one thing that must never happen is a row becoming visible with a position below one a reader
// has already seen.
//
// Why commit order and not an id or a time: on a team's PostgreSQL several `serve` processes
// publish at once. Ids come from blocks each process takes ahead (sequence-ids.ts) and a
// transaction that took a lower number, or read a lower clock, may commit after one that took a
// higher: a poller between the two commits would pass the lower one by for ever.
//
// How, on PostgreSQL: a deferred constraint trigger runs as the publishing transaction commits. It
// takes EVENTS_COMMIT_LOCK (a transaction advisory lock, held until the commit is done and visible)
// and numbers the event the highest committed number plus one, read under the lock. Holders take
// turns, each sees the one before it committed (READ COMMITTED: BEGIN's default, which the
// claims rely on too; each statement of the trigger reads a fresh snapshot), so numbers are
// handed out in commit order, and every snapshot sees a prefix of them. The lock is held only
// for that update and the commit itself, not while the event's deliveries are written. The event
// publish writes (event-deliveries.ts) is not the requests writer's commit, so it does not take
// REQUESTS_WRITE_LOCK; no commit holds both, so neither waits on the other.
//
// On SQLite one connection at a time writes the file, so "the highest plus one" given at insert is
// commit order already: the same rule, in an AFTER INSERT trigger. Events from before keep their
// rowid, the order the feed read until now (so a poller's cursor goes on where it was).
//
// Highest plus one (not a sequence) on both: the same history is numbered the same on both engines,
// and numbering starts again after Clear history as SQLite's rowid did. An event inserted with its
// number (store copy) keeps it, so a copied store pages as its source did, and the next event
// published is numbered after it.

/** The advisory lock each event's commit takes on PostgreSQL, beside the migrations' (…122), retention's (…123) and the requests writer's (…124). */
export const EVENTS_COMMIT_LOCK = 7_304_151_125

export const FEED_ORDER_SQLITE = `
      ALTER TABLE events ADD COLUMN commit_seq INTEGER;
      UPDATE events SET commit_seq = rowid;
      CREATE INDEX events_by_commit_seq ON events(commit_seq, id);
      CREATE TRIGGER events_commit_seq AFTER INSERT ON events WHEN NEW.commit_seq IS NULL
      BEGIN
        UPDATE events SET commit_seq = (SELECT coalesce(max(commit_seq), 0) + 1 FROM events) WHERE rowid = NEW.rowid;
      END;
`

// Events already on a team's store were never served by the feed (it refused PostgreSQL), so no
// poller holds a position among them: they are numbered in the order they were stored.
export const FEED_ORDER_POSTGRES = `
      ALTER TABLE events ADD COLUMN commit_seq BIGINT;
      UPDATE events SET commit_seq = o.n
        FROM (SELECT id, row_number() OVER (ORDER BY coalesce(stored_at, created_at), id) AS n FROM events) o
       WHERE events.id = o.id;
      CREATE INDEX events_by_commit_seq ON events(commit_seq, id);
      CREATE FUNCTION events_commit_seq() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(${EVENTS_COMMIT_LOCK});
        UPDATE events SET commit_seq = (SELECT coalesce(max(commit_seq), 0) + 1 FROM events)
         WHERE id = NEW.id AND commit_seq IS NULL;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER events_commit_seq AFTER INSERT ON events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.commit_seq IS NULL)
        EXECUTE FUNCTION events_commit_seq();
`
