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

export function createBodyBudget(limit = DEFAULT_BODY_BUDGET_BYTES): BodyBudget {
  let used = 0
  return {
    limit,
    inUse: () => used,
    open() {
      let held = 0
      let released = false
      return {
        take(bytes) {
          if (released) return false
          if (bytes <= 0) return true
          // Alone, a request may use more than the budget (up to its endpoint's limit).
          if (used + bytes > limit && used - held > 0 && held + bytes > SMALL_BODY_BYTES) return false
          used += bytes
          held += bytes
          return true
        },
        get held() {
          return held
        },
        release() {
          if (released) return
          released = true
          used -= held
          held = 0
        },
      }
    },
  }
}
