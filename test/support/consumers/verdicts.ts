// What the consumer check finds for the consumers in this folder, shared by the tests that grade
// them (API, CLI, browser).
import type { CheckSeverity, ConsumerCheckId } from '../../../shared/conformance'

/** The careful consumer passes every check but latency, which is graded on its own (it can warn under load). */
export const CAREFUL_CHECKS = {
  valid_delivery: 'pass',
  duplicate_tolerated: 'pass',
  wrong_signature_rejected: 'pass',
  missing_signature_rejected: 'pass',
  stale_timestamp_rejected: 'pass',
  malformed_body_rejected: 'pass',
  no_redirect: 'pass',
} as const satisfies Partial<Record<ConsumerCheckId, CheckSeverity>>

/** The sloppy consumer with a 150 ms delay, graded with a 100 ms warning threshold. */
export const SLOPPY_VERDICTS = {
  valid_delivery: 'warn',
  duplicate_tolerated: 'fail',
  wrong_signature_rejected: 'fail',
  missing_signature_rejected: 'fail',
  stale_timestamp_rejected: 'fail',
  malformed_body_rejected: 'fail',
  no_redirect: 'pass',
  latency: 'warn',
} as const satisfies Partial<Record<ConsumerCheckId, CheckSeverity>>
