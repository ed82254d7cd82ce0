import type { EnvelopeInput, ProviderPack } from '../../../shared/providers'
import { derivedToken, derivedUuid } from './derived-ids'

// The body a provider sends for one attempt: the pack's envelope builds it from the stored event
// (shared/providers/), with ids derived here so that they stay the same across retries.

const derive = { token: derivedToken, uuid: derivedUuid }

export function providerBody(pack: ProviderPack, input: EnvelopeInput): Buffer {
  const body = pack.envelope.body(input, derive)
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
}
