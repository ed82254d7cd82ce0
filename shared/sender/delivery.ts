// A delivery's life as every layer names it (store, sender, contract, scenario files): where it
// stands, and what each attempt decided.
import type { Decision } from './policy'

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** A timeline row's status: its delivery's, or `received` for a row of inbound requests alone. */
export const TIMELINE_STATUSES = [...DELIVERY_STATUSES, 'received'] as const
export type TimelineStatus = (typeof TIMELINE_STATUSES)[number]

/** An attempt's decision: the policy's once it ended, `pending` while it runs. */
export type AttemptDecisionState = Decision | 'pending'
