// The words of the report card: per check a title, why it matters and how to fix a failure.
// Kept apart from the grading so the UI, the CLI and docs/conformance.md say the same thing.
import type { ConsumerCheckId } from '../../../../shared/conformance'

export interface CheckAdvice {
  title: string
  why: string
  fix: string
}

export const CONSUMER_ADVICE: Record<ConsumerCheckId, CheckAdvice> = {
  valid_delivery: {
    title: 'Accepts a valid event in time',
    why: 'Anything but a 2xx within the provider timeout counts as a failed attempt: the provider retries, and after its last retry the event is lost for you.',
    fix: 'Answer 2xx as soon as the signature is verified and the event is stored; do the slow work (emails, API calls) after answering, from a queue. A 401/403 here usually means the secret or the signed bytes differ: verify the raw body exactly as received, before any JSON parsing.',
  },
  duplicate_tolerated: {
    title: 'Tolerates a duplicate',
    why: 'Providers deliver at least once: a retry after a lost answer, or a network hiccup, sends the same event id again, and an error makes the provider retry it again and again.',
    fix: 'Deduplicate by the event id (a unique key in your store): when the id is already known, skip the work and still answer 2xx.',
  },
  wrong_signature_rejected: {
    title: 'Rejects a wrong signature',
    why: 'Your URL is public: without a signature check anyone can post fake events to it.',
    fix: 'Verify the signature header against the raw body with your signing secret (constant-time comparison) and answer 400/401 when it does not match, before acting on the event.',
  },
  missing_signature_rejected: {
    title: 'Rejects a missing signature',
    why: 'A check that only runs when the header is present is skipped by simply leaving it out.',
    fix: 'Treat a missing or empty signature header as invalid: answer 400/401.',
  },
  stale_timestamp_rejected: {
    title: 'Rejects a stale timestamp',
    why: 'A captured request can be replayed later with its valid signature; the signed timestamp is what stops replays.',
    fix: 'Compare the signed timestamp with your clock and reject it (400/401) when it is older than the tolerance (5 minutes is usual); keep the server clock in sync (NTP).',
  },
  malformed_body_rejected: {
    title: 'Rejects a malformed body',
    why: 'A body that is not valid JSON can never succeed; a 5xx makes the provider retry it forever, a 2xx hides that the event was dropped.',
    fix: 'Parse the body in a try/catch and answer 400 when it is not valid JSON (after verifying the signature).',
  },
  no_redirect: {
    title: 'Does not redirect',
    why: 'Providers do not follow redirects: a 301/302/307/308 is a failed attempt, usually from http→https or a missing trailing slash.',
    fix: 'Register the final URL (https, exact path and trailing slash) so the endpoint answers directly.',
  },
  handshake_answered: {
    title: 'Answers the verification handshake',
    why: 'Providers verify a URL before they deliver to it (Zoom again every 72 h, X hourly): a wrong or slow answer and the provider does not deliver, or stops delivering.',
    fix: "Recognise the handshake request (its query parameter or body type) before the signature-checked event path, and answer exactly what the provider's docs ask for.",
  },
  latency: {
    title: 'Answers quickly',
    why: 'Slow answers get close to the provider timeout under load; past it, every delivery becomes a retry.',
    fix: 'Answer before doing the work: store the event, return 2xx, process it from a queue. Watch p95, not only the median.',
  },
}
