// The definitions behind every count the app shows, as SQL predicates over a named table alias, so
// each query that counts (store/counts.ts) or marks a row (store/timeline-reads.ts) says the same
// thing the same way. The words for them are in shared/contract/counts.ts; docs/ui.md explains them.

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
export const RECEIVED_REQUEST = `r.attempt_id IS NULL`
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
