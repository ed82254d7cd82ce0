import type { SubscriptionView } from '../../../shared/contract'
import { subscriptionViews, withFailureWindow, type EngineBinding } from './views'

// Subscription metrics scan every attempt of a subscription: they are computed off the request
// path (at start, and at most twice a second while deliveries move) and served from here. Counted
// through the store's SqlEngine (awaited), one count at a time: a recount asked while one runs
// runs once after it, so the pushed figures are never older than the last one asked for.

const WINDOW_REFRESH_MS = 60_000

export function createSubscriptionMetrics(current: () => EngineBinding, publish: (subscriptions: SubscriptionView[]) => void, log?: (line: string) => void) {
  let cache: SubscriptionView[] | null = null
  let exactSoon: NodeJS.Timeout | null = null
  let metricsTimer: NodeJS.Timeout | null = null
  // The count running now, and the one asked for since (at most one waits: it counts for every ask).
  let running: Promise<void> = Promise.resolve()
  let queued: Promise<void> | null = null
  const failed = (what: string) => (error: unknown) => log?.(`hookloop: ${what}: ${error instanceof Error ? error.message : String(error)}`)
  /** Counts every subscription's metrics now and pushes them; resolves once pushed. */
  const recount = (): Promise<void> => {
    if (queued) return queued
    const next = running.then(async () => {
      queued = null
      cache = await subscriptionViews(current())
      publish(cache)
    }).catch(failed('the subscriptions could not be counted'))
    queued = next
    running = next
    return next
  }
  const views = async (): Promise<SubscriptionView[]> => {
    // A subscription just made or changed is in the list this returns.
    if (queued) await queued
    if (cache) return cache
    // First ask on a store this engine has not counted yet: answer at once from the deliveries
    // table, count exactly just after (the first snapshot must not wait on a scan of every attempt).
    exactSoon ??= setTimeout(() => {
      exactSoon = null
      void recount()
    }, 250)
    return subscriptionViews(current(), true)
  }
  // The 24 h badge's window moves with the wall clock even when nothing is sent: deliveries age
  // out of it. Every minute the badges alone are counted again (an index range each, where the
  // attempt-level figures scan every attempt), and pushed when one changed.
  const windowTimer = setInterval(() => {
    const before = cache
    if (!before) return
    Promise.all(before.map((view) => withFailureWindow(current(), view))).then((after) => {
      // A full count that landed meanwhile is newer than this one.
      if (cache !== before) return
      cache = after
      if (after.some((view, i) => view !== before[i])) publish(after)
    }, failed('the 24 h failure badges could not be counted'))
  }, WINDOW_REFRESH_MS)
  windowTimer.unref()
  return {
    views,
    recount,
    /** Metrics move with every attempt; one refresh per half second is enough for a badge. */
    soon: () => {
      metricsTimer ??= setTimeout(() => {
        metricsTimer = null
        void recount()
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
