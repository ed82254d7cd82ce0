// requests.commit_order on a team's PostgreSQL: the order the live timeline watch follows captured
// requests in (host/timeline-watch.ts, change-reads.ts). Every process numbers requests from blocks
// of the sequence taken ahead, so a row with a low id can commit after many higher ones: a reader
// that follows ids would pass it by. What a reader needs is a number that never shows up below one
// it has already read.
//
// Schemas 25-30 numbered rows from a sequence under REQUESTS_WRITE_LOCK, held until the commit was
// visible: numbers became visible in order, and every commit that captured took turns. From schema
// 31 a row's number is its transaction's id (pg_current_xact_id, 64 bits, never reused) times
// ORDERS_PER_TRANSACTION, plus a sequence's value within it, taken without a lock; the reader reads
// only below the transaction id the oldest transaction still running has (pg_snapshot_xmin of its
// statement's snapshot). Every transaction below that one has ended: its rows are all visible or
// never will be, so nothing below the bound can appear later, and a cursor skips nothing. A row of
// a later transaction waits until every earlier one ends, and the watch reads again while any row is
// waiting so (requestsHeldBack), since the transaction it waits for may write nothing it is told of.
//
// The cost of this way: any transaction left open on the same PostgreSQL server (any database: the
// ids are the server's) holds rows back from the live timeline until it ends. They are stored and
// shown on a reload; only their push waits. docs/team.md says so.

/** Room for a transaction's rows in the numbering: more rows than one transaction writes. */
export const ORDERS_PER_TRANSACTION = 1_048_576

/** The trigger function that numbers each inserted request (its trigger, request_a_commit_order, is schema 25's). */
export const REQUEST_COMMIT_ORDER_BY_TRANSACTION = `
  CREATE OR REPLACE FUNCTION requests_number_commit() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.commit_order := CAST(CAST(pg_current_xact_id() AS TEXT) AS BIGINT) * ${ORDERS_PER_TRANSACTION} + nextval('requests_commit_order') % ${ORDERS_PER_TRANSACTION};
    RETURN NEW;
  END $$;`

/**
 * The lowest number a row may still become visible with: below it, every row is final. A scalar
 * subquery, computed once per statement, so the bound is an index condition of
 * requests_by_commit_order (the bare expression is not a constant to the planner).
 */
export const COMMIT_ORDER_HORIZON = `(SELECT CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS TEXT) AS BIGINT) * ${ORDERS_PER_TRANSACTION})`
