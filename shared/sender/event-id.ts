// What an event id may be. Hookloop makes UUID v4s, but a provider's own ids are kept as they are
// (Svix's `msg_2KWP…`, Stripe's `evt_1Nq…`, GitHub's X-GitHub-Delivery GUID), so an incident sent
// again carries the id the customer's log shows. An id goes into a header as it is: letters,
// digits and the marks providers' ids use (base64's included), never a space or a line break.

export const EVENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:+=@~/-]{0,199}$/

export const EVENT_ID_RULE = 'an event id is 1 to 200 letters, digits or _ . : + = @ ~ / - (starting with a letter or digit), like a UUID, msg_… or evt_…'

/** A UUID v4, the id Hookloop makes for an event (either case; compare lower-cased). */
export const UUID_V4_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function isEventId(value: unknown): value is string {
  return typeof value === 'string' && EVENT_ID_PATTERN.test(value)
}
