// Sending-side faults: what Hookloop's sender can do wrong on purpose, to see how a consumer
// copes. Asked for per event when it is published; each attempt records the fault it carried.
import { z } from 'zod'

export const SEND_FAULT_TYPES = [
  'duplicate',
  'wrong-secret',
  'rotated-secret',
  'stale-timestamp',
  'future-timestamp',
  'corrupt-signature',
  'drop',
  'out-of-order',
] as const
export type SendFaultType = (typeof SEND_FAULT_TYPES)[number]

export const sendFaultSchema = z.discriminatedUnion('type', [
  /**
   * The event goes out twice, as a second delivery of the same event id: `at-once` right after the
   * first delivery's first attempt, `parallel` at the same instant, `delayed` after delay_ms.
   */
  z.strictObject({
    type: z.literal('duplicate'),
    mode: z.enum(['at-once', 'parallel', 'delayed']).default('at-once'),
    delay_ms: z.number().int().nonnegative().default(60_000),
  }),
  /** Signed with a secret the consumer never had. */
  z.strictObject({ type: z.literal('wrong-secret') }),
  /** Signed with the secret rotated out last (invalid at once after a rotation). */
  z.strictObject({ type: z.literal('rotated-secret') }),
  z.strictObject({ type: z.literal('stale-timestamp'), by_s: z.number().int().positive().default(600) }),
  z.strictObject({ type: z.literal('future-timestamp'), by_s: z.number().int().positive().default(600) }),
  /** Signed correctly, then one character of the signature changed. */
  z.strictObject({ type: z.literal('corrupt-signature') }),
  /** A lost webhook: recorded as dropped, never sent. */
  z.strictObject({ type: z.literal('drop') }),
  /** The first attempt waits delay_ms, so events published after it arrive first. */
  z.strictObject({ type: z.literal('out-of-order'), delay_ms: z.number().int().positive().default(5_000) }),
])
export type SendFault = z.infer<typeof sendFaultSchema>
export type SendFaultInput = z.input<typeof sendFaultSchema>
