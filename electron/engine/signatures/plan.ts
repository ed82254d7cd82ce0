import type { KeyObject } from 'node:crypto'
import type { SchemeMeta, VerifyInput } from '../../../shared/signatures'
import type { Tolerance } from './tolerance'

/**
 * What a scheme hands to the shared verification once it has parsed its headers: the received
 * signatures (already filtered to the expected version) and how to compute one.
 */
export interface VerifyPlan {
  meta: SchemeMeta
  input: VerifyInput
  /** Decoded received signatures with the expected version. */
  received: Buffer[]
  /** The header value(s) as received, for the result. */
  receivedText: string
  /** Candidate MACs for a key, body and URL (Twilio: the URL with and without default port). */
  compute: (key: Uint8Array | KeyObject, body: Uint8Array, url: string | undefined) => Buffer[]
  /** A MAC as it appears in the header, for `expected`. */
  display: (mac: Buffer) => string
  /** Checked only once a signature matches; the signature tells whether the time is authentic. */
  timestamp?: { value: number; tolerance: Tolerance; what?: string }
  /** Whether the signed bytes include the URL (drives the local-URL hint); default meta.needsUrl. */
  usesUrl?: boolean
  /** Appended to the valid sentence (e.g. "time not checked: no webhookTimestamp"). */
  note?: string
}

export interface IndexedKey {
  index: number
  /** Imported once per secret (secrets.ts `secretKey`). */
  key: KeyObject
}
