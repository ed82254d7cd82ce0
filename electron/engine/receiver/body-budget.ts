// The memory budget for request bodies in flight: every byte kept from a body (from its first
// chunk until the request is answered) is counted against one limit for the whole receiver. A
// request that does not fit is refused with 503 + Retry-After instead of growing the heap; one
// request is always let in when nothing else is held, so an endpoint's own body limit still works,
// and a small body (an ordinary webhook) is always let in, so a flood of large bodies cannot turn
// every ordinary sender away (small bodies are bounded by the connections that carry them).

/** Default: enough for dozens of large webhooks at once, small beside a laptop's memory. */
export const DEFAULT_BODY_BUDGET_BYTES = 128 * 1024 * 1024

/** A request holding at most this much is never refused for the budget (it is still counted). */
export const SMALL_BODY_BYTES = 64 * 1024

export interface BodyBudget {
  readonly limit: number
  /** Bytes held right now. */
  inUse(): number
  /** A request's share, released once when it ends. */
  open(): BodyReservation
}

export interface BodyReservation {
  /** Takes `bytes` more; false (nothing taken) when the budget cannot hold them. */
  take(bytes: number): boolean
  readonly held: number
  release(): void
}

// A class, not an object literal of closures: one is made per request.
class Reservation implements BodyReservation {
  held = 0
  private released = false
  constructor(private readonly pool: { used: number; readonly limit: number }) {}

  take(bytes: number): boolean {
    if (this.released) return false
    if (bytes <= 0) return true
    const pool = this.pool
    // Alone, a request may use more than the budget (up to its endpoint's limit).
    if (pool.used + bytes > pool.limit && pool.used - this.held > 0 && this.held + bytes > SMALL_BODY_BYTES) return false
    pool.used += bytes
    this.held += bytes
    return true
  }

  release(): void {
    if (this.released) return
    this.released = true
    this.pool.used -= this.held
    this.held = 0
  }
}

export function createBodyBudget(limit = DEFAULT_BODY_BUDGET_BYTES): BodyBudget {
  const pool = { used: 0, limit }
  return {
    limit,
    inUse: () => pool.used,
    open: () => new Reservation(pool),
  }
}
