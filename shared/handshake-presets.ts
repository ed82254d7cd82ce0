// Receiver presets that answer providers' verification handshakes (one per entry of
// shared/handshakes.ts), so a real provider can be pointed at an endpoint's public URL: the
// handshake's matchers pick the request out, a `handshake` step answers it. Spread into
// RULE_PRESETS (shared/rules-presets.ts) with one line.
import { z } from 'zod'
import { mapEntries, type PresetInfo } from './catalog'
import { HANDSHAKES, type HandshakeKind } from './handshakes'

type Definition = Record<string, unknown> & { name: string }

/** Optional: the secret that keys the answer's HMAC (Zoom, X), instead of the endpoint's first secret. */
const shape = { secret: z.string().min(1).optional() }

export const HANDSHAKE_PRESETS: Record<HandshakeKind, PresetInfo & { shape: typeof shape; seeded?: boolean; rule(p: { secret?: string | undefined }): Definition }> = mapEntries(HANDSHAKES.entries, (h, kind) => ({
  label: `Answer ${h.label}`,
  description: `${h.provider}'s verification handshake: ${h.answer}${h.answerSecret ? ` (keyed with the endpoint's secret as ${h.answerSecret})` : ''}`,
  shape,
  rule: (p) => ({
    name: `answer the ${h.label} handshake`,
    matchers: h.matchers,
    steps: [{ type: 'handshake', kind, ...(p.secret === undefined ? {} : { secret: p.secret }) }],
  }),
}))
