// Receiver presets that answer providers' verification handshakes (one per entry of
// shared/receiver/handshakes.ts), so a real provider can be pointed at an endpoint's public URL: the
// handshake's matchers pick the request out, a `handshake` step answers it. Entries of the
// rule-preset catalog (shared/receiver/rule-presets.ts), listed after its own.
import { z } from 'zod'
import { mapEntries } from '../catalog'
import { HANDSHAKES, type HandshakeKind } from './handshakes'
import { preset, type RulePresetEntry } from './rule-preset-entry'

export const HANDSHAKE_PRESETS: Record<HandshakeKind, RulePresetEntry> = mapEntries(HANDSHAKES.entries, (h, kind) =>
  preset({
    label: `Answer ${h.label}`,
    description: `${h.provider}'s verification handshake: ${h.answer}${h.answerSecret ? ` (keyed with the endpoint's secret as ${h.answerSecret})` : ''}`,
    /** Optional: the secret that keys the answer's HMAC (Zoom, X), instead of the endpoint's first secret. */
    shape: { secret: z.string().min(1).optional() },
    rule: (p) => ({
      name: `answer the ${h.label} handshake`,
      matchers: h.matchers,
      steps: [{ type: 'handshake', kind, ...(p.secret === undefined ? {} : { secret: p.secret }) }],
    }),
  }),
)
