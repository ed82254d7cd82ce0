// The commands `hookloop mcp`'s explain_signature and trigger_event run on a served Hookloop: both
// need an endpoint's signing secret, which the server hands to no token, so the server runs them
// and answers what the tool would. Kept beside contract.ts and spread into it, one file per capability.
import { z } from 'zod'
import { PROVIDER_IDS, type ProviderId } from '../providers'
import { sendFaultSchema, SEND_FAULT_TYPES, type AttemptView, type DeliveryStatus } from '../sender'
import type { SchemeId, VerifyReason } from '../signatures'

export const toolSchemas = {
  /** Why a captured request's signature passed or failed, checked again with the endpoint's current secrets; no secret in the answer. */
  'request.explainSignature': z.object({ id: z.number().int().positive() }).strict(),
  /** One catalog event delivered to an endpoint's URL as its provider delivers it, signed with the endpoint's first secret unless one is given. */
  'endpoint.trigger': z
    .object({
      /** The endpoint's id or slug. */
      endpoint: z.string().min(1).max(200),
      provider: z.enum(PROVIDER_IDS),
      eventType: z.string().min(1).max(200),
      secret: z.string().min(1).max(500).optional(),
      /** Body overrides PATH=VALUE. */
      set: z.array(z.string().max(10_000)).max(100).optional(),
      /** A retry policy preset id. */
      policy: z.string().min(1).max(100).optional(),
      clock: z.enum(['virtual', 'real']).default('virtual'),
      faults: z.array(z.union([z.enum(SEND_FAULT_TYPES), sendFaultSchema])).max(20).optional(),
    })
    .strict(),
} as const

export type ToolCommandName = keyof typeof toolSchemas

/** A signature verdict with the signatures shortened (never whole: a whole one would authenticate a replay). */
export interface SignatureVerdictView {
  valid: boolean
  reason: VerifyReason
  detail: string
  computed: string | null
  received: string | null
  skewSeconds?: number
  secretIndex?: number
}

export interface SignatureExplanation {
  requestId: number
  /** On the request's clock: ISO for a wall time, time into the run for a simulated one. */
  receivedAt?: string | null
  storedAt?: string | null
  endpoint: {
    id: string
    slug: string
    scheme: SchemeId | null
    schemeLabel?: string
    signatureHeader?: string | null
    toleranceSeconds?: number | null
    /** Each secret's hint, never the secret. */
    secretHints?: string[]
  }
  stored: SignatureVerdictView | null
  recheckedWithCurrentSecrets?: SignatureVerdictView
  note?: string
  urlNote?: string
  fix: string
}

export interface TriggerAnswer {
  ok: boolean
  provider: ProviderId
  eventType: string
  url: string
  eventId: string
  providerEventId: unknown
  status: DeliveryStatus
  clockMs: number
  body: string
  /** Which secret signed, said in words: never the secret. */
  signedWith: string
  attempts: (Omit<AttemptView, 'startedAt' | 'nextAttemptAt'> & { startedAt: string | null; nextAttemptAt: string | null })[]
}

export interface ToolResponses {
  'request.explainSignature': SignatureExplanation
  'endpoint.trigger': TriggerAnswer
}
