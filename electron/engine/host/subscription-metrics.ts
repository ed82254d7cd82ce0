import type { SubscriptionView } from '../../../shared/contract'
import { subscriptionViews, withFailureWindow, type EngineBinding } from './views'

// Subscription metrics scan every attempt of a subscription: they are computed off the request
// path (at start, and at most twice a second while deliveries move) and served from here.

const WINDOW_REFRESH_MS = 60_000

export function createSubscriptionMetrics(current: () => EngineBinding, publish: (subscriptions: SubscriptionView[]) => void) {
  let cache: SubscriptionView[] | null = null
  let exactSoon: NodeJS.Timeout | null = null
  let metricsTimer: NodeJS.Timeout | null = null
  const views = (): SubscriptionView[] => {
    if (cache) return cache
    // First ask on a store this engine has not counted yet: answer at once from the deliveries
    // table, count exactly just after (the first snapshot must not wait on a scan of every attempt).
    exactSoon ??= setTimeout(() => {
      exactSoon = null
      recount()
    }, 250)
    return subscriptionViews(current(), true)
  }
  /** Counts every subscription's metrics now and pushes them. */
  const recount = () => {
    cache = subscriptionViews(current())
    publish(cache)
  }
  // The 24 h badge's window moves with the wall clock even when nothing is sent: deliveries age
  // out of it. Every minute the badges alone are counted again (an index range each, where the
  // attempt-level figures scan every attempt), and pushed when one changed.
  const windowTimer = setInterval(() => {
    if (!cache) return
    const before = cache
    cache = before.map((view) => withFailureWindow(current(), view))
    if (cache.some((view, i) => view !== before[i])) publish(cache)
  }, WINDOW_REFRESH_MS)
  windowTimer.unref()
  return {
    views,
    recount,
    /** Metrics move with every attempt; one refresh per half second is enough for a badge. */
    soon: () => {
      metricsTimer ??= setTimeout(() => {
        metricsTimer = null
        recount()
      }, 500)
    },
    /** A new engine: its store is counted afresh. */
    forget: () => {
      cache = null
    },
    close: () => {
      clearInterval(windowTimer)
      if (metricsTimer) clearTimeout(metricsTimer)
      if (exactSoon) clearTimeout(exactSoon)
    },
  }
}
