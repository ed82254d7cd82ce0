// Twilio: base64 HMAC-SHA1 (auth token) of the full public URL followed by every POST parameter
// as key+value in sorted key order. JSON bodies are signed differently: the URL carries
// `bodySHA256=<hex sha256(body)>` and no parameters are appended.
import type { VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { bodyVariants } from './body-variants'
import { headerValues } from './headers'
import { requireSignUrl } from './hmac-scheme'
import { decodeSignature, hmac, sha256Hex } from './mac'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { signingKey } from './secrets'
import { defaultPortVariant } from './url'
import { requireUrl, runPlan } from './verify-plan'

const meta = SCHEMES.twilio
const HEADER = 'x-twilio-signature'

function bodyHashParam(url: string): string | null {
  try {
    return new URL(url).searchParams.get('bodySHA256')
  } catch {
    return null
  }
}

/** `key1value1key2value2…` over the form-encoded body, keys sorted, repeated values sorted. */
function sortedParams(body: Uint8Array): string {
  const grouped = new Map<string, Set<string>>()
  for (const [key, value] of new URLSearchParams(Buffer.from(body).toString('utf8'))) {
    grouped.set(key, (grouped.get(key) ?? new Set()).add(value))
  }
  return [...grouped.keys()].sort().map((key) => [...(grouped.get(key) ?? [])].sort().map((value) => key + value).join('')).join('')
}

function signedText(url: string, body: Uint8Array): string {
  return bodyHashParam(url) === null ? url + sortedParams(body) : url
}

/** The URL in the form a request gets when its JSON body is signed: with ?bodySHA256=. */
export function twilioBodyHashUrl(url: string, body: Uint8Array): string {
  const parsed = new URL(url)
  parsed.searchParams.set('bodySHA256', sha256Hex(body))
  return parsed.toString()
}

export const twilio: SchemeModule = {
  sign(input: ResolvedSignInput): Record<string, string> {
    const url = requireSignUrl(meta, input.url)
    const hash = bodyHashParam(url)
    if (hash !== null && hash !== sha256Hex(input.body)) throw new Error('Twilio: the URL\'s bodySHA256 is not the SHA-256 of this body')
    const mac = hmac('sha1', signingKey(input.secret, meta), [signedText(url, input.body)])
    return { [HEADER]: mac.toString('base64') }
  },

  verify(input: VerifyInput): VerifyResult {
    const values = headerValues(input.headers, HEADER)
    if (values.length === 0) return fail(meta.id, 'missing_header', `The ${HEADER} header is missing, so there is no Twilio signature to check.`)
    const noUrl = requireUrl({ meta, input })
    if (noUrl) return noUrl
    const receivedText = values.join(', ')
    const received = values.map((value) => decodeSignature(value.trim(), 'base64')).filter((sig) => sig !== undefined)
    if (received.length === 0) return fail(meta.id, 'malformed_header', `The ${HEADER} header is not base64.`, { received: receivedText })

    const result = runPlan({
      meta,
      input,
      received,
      receivedText,
      // Twilio's own validators accept the URL with and without the default port.
      compute: (key, body, url) => {
        if (!url) return []
        const urls = [url, defaultPortVariant(url)].filter((u) => u !== undefined)
        return urls.map((u) => hmac('sha1', key, [signedText(u, body)]))
      },
      display: (mac) => mac.toString('base64'),
    })
    const hash = input.url ? bodyHashParam(input.url) : null
    if (!result.valid || hash === null || hash === sha256Hex(input.body)) return result
    // The URL is authentic but the body is not the one it was signed for.
    if (input.body.length === 0) return fail(meta.id, 'empty_body', 'The body is empty but the URL\'s bodySHA256 covers one: pass the raw request body to verify (a body parser probably consumed it first).', { received: receivedText })
    const variant = bodyVariants(input.body).find((v) => sha256Hex(v.body) === hash)
    const why = variant ? `the bodySHA256 in the URL matches ${variant.explanation}` : 'the body changed after signing'
    return fail(meta.id, 'signature_mismatch', `The signature over the URL is valid but its bodySHA256 is not the SHA-256 of this body: ${why}.`, { received: receivedText })
  },
}
