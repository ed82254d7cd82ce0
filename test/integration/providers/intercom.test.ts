import { judgedDeliveries } from './judged'

// Intercom judged by the check its docs give (no Node verifier is published). Intercom signs no
// timestamp: no stale case.
judgedDeliveries('intercom', { checksTime: false })
