// The polling feed: the sender side's list of the events it emitted, for an integration
// under test to poll (seed provider A: "a webhook is a signal, not the only source of truth").
// Served on the receiver's HTTP server (and so through the public tunnel) at FEED_PATH.
import type { DeliveryStatus } from '../sender'

export const API_PATH_PREFIX = '/api/v1/'
export const FEED_PATH = '/api/v1/events'
export const FEED_DEFAULT_LIMIT = 100
export const FEED_MAX_LIMIT = 1000

/** One delivery of a feed event: where it stands now (a dropped one is `failed` with outcome `dropped`). */
export interface FeedDelivery {
  delivery_id: number
  subscription_id: string
  status: DeliveryStatus
  attempts: number
  last_status_code: number | null
  /** Outcome of the latest attempt (http_503, timeout, dropped …); null before the first. */
  last_outcome: string | null
  updated_at: string
}

export interface FeedEvent {
  event_id: string
  event_type: string
  /** The `payload` of the envelope that was sent (the whole envelope when it is not JSON). */
  payload: unknown
  /** ISO 8601 with milliseconds, UTC: on the sender's clock, a simulation's when simulation_id is set (then a simulated time, not a date). */
  created_at: string
  /** The simulation the event was published in (a scenario run, Try the loop …); null on the wall clock. */
  simulation_id: string | null
  /** ISO 8601, UTC: the wall time the event was stored, whatever clock created_at is on. */
  stored_at: string
  deliveries: FeedDelivery[]
}

export interface FeedPage {
  data: FeedEvent[]
  has_more: boolean
  /** Pass as `cursor` to get the next page; null when has_more is false. */
  next_cursor: string | null
}

/** Parsed query: where to start (exclusive position) and how many. */
export interface FeedQuery {
  /** Events with created_at >= this (ms); inclusive. */
  since: number | null
  /** Continue strictly after this position in the store's sequence (electron/engine/feed/cursor.ts). */
  after: FeedAfter | null
  limit: number
}

/**
 * A cursor's position: the last event returned and its place in the store's sequence (seq), or,
 * for a cursor made before the feed was ordered by sequence, its created_at.
 */
export type FeedAfter = { seq: number; event_id: string } | { created_at: number; event_id: string }

export type FeedParameter = 'updated_since' | 'limit' | 'cursor'

/** The 400 body. */
export interface FeedErrorBody {
  error: { code: 'invalid_parameter' | 'missing_parameter' | 'not_found' | 'method_not_allowed'; parameter?: FeedParameter; message: string }
}
