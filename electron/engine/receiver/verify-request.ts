// Runs an endpoint's signature check on the raw bytes as received. A scheme module that throws
// (it should not) is reported as a failed check rather than crashing the request.
import type { IncomingHttpHeaders } from 'node:http'
import type { Endpoint } from '../../../shared/receiver'
import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { verify } from '../signatures'

export interface VerifyRequestInput {
  body: Uint8Array
  headers: IncomingHttpHeaders
  /** The full URL the sender called (public URL when behind a tunnel). */
  url: string
  /** Receive time on the clock the request was signed on: the wall clock, or the loop's simulated clock. */
  nowMs: number
}

export function verifyRequest(endpoint: Endpoint, input: VerifyRequestInput): VerifyResult {
  const scheme = endpoint.scheme
  if (!scheme) throw new Error('verifyRequest needs an endpoint with a scheme')
  const args: VerifyInput = {
    body: input.body,
    headers: input.headers,
    secrets: endpoint.secrets,
    url: input.url,
    now: Math.floor(input.nowMs / 1000),
  }
  if (endpoint.toleranceSeconds !== null) args.toleranceSeconds = endpoint.toleranceSeconds
  if (endpoint.custom) args.custom = endpoint.custom
  try {
    return verify(scheme, args)
  } catch (error) {
    return {
      valid: false,
      scheme,
      reason: 'malformed_header',
      detail: `the ${scheme} check could not run: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}
