// The one door to every signature scheme: sign() for the sender, verify() for the receiver, the
// inspector and the CLI. Each scheme lives in its own module; this file only dispatches.
import { SCHEMES, SCHEME_IDS, type SchemeId, type SignInput, type VerifyInput, type VerifyResult } from '../../../shared/signatures'
import { freshId } from './ids'
import type { SchemeModule } from './scheme'
import { custom } from './custom'
import { bitbucket } from './bitbucket'
import { gitlab } from './gitlab'
import { pagerduty } from './pagerduty'
import { typeform } from './typeform'
import { github } from './github'
import { linear } from './linear'
import { paddle } from './paddle'
import { shopify } from './shopify'
import { slack } from './slack'
import { square } from './square'
import { standardWebhooks } from './standard-webhooks'
import { stripe } from './stripe'
import { svix } from './svix'
import { twilio } from './twilio'
import { zoom } from './zoom'
import { sendgrid } from './sendgrid'
import { discord } from './discord'
import { twitch } from './twitch'
import { hubspot } from './hubspot'
import { intercom } from './intercom'
import { mailgun, mailgunSignBody } from './mailgun'

export { SCHEMES, SCHEME_IDS, isSchemeId } from '../../../shared/signatures'
export type { SchemeId, SchemeMeta, SignInput, VerifyInput, VerifyResult, VerifyReason, CustomHmacOptions, HeaderMap } from '../../../shared/signatures'
export { SecretFormatError } from './secrets'
export { constantTimeEqual } from './compare'
export { twilioBodyHashUrl } from './twilio'
export { ed25519KeyPair, isAsymmetricKey } from './ed25519'
export { freshPrivateKey, publicKeyText, isAsymmetricFormat } from './asymmetric-keys'

function moduleFor(scheme: SchemeId): SchemeModule {
  switch (scheme) {
    case 'standard-webhooks':
      return standardWebhooks
    case 'svix':
      return svix
    case 'stripe':
      return stripe
    case 'github':
      return github
    case 'shopify':
      return shopify
    case 'slack':
      return slack
    case 'twilio':
      return twilio
    case 'square':
      return square
    case 'paddle':
      return paddle
    case 'linear':
      return linear
    case 'zoom':
      return zoom
    case 'sendgrid':
      return sendgrid
    case 'discord':
      return discord
    case 'twitch':
      return twitch
    case 'hubspot':
      return hubspot
    case 'intercom':
      return intercom
    case 'mailgun':
      return mailgun
    case 'gitlab':
      return gitlab
    case 'bitbucket':
      return bitbucket
    case 'pagerduty':
      return pagerduty
    case 'typeform':
      return typeform
    case 'custom':
      return custom
    default: {
      const never: never = scheme
      throw new Error(`unknown signature scheme ${String(never)}`)
    }
  }
}

/**
 * Headers to send (lower-case names). A missing id gets a fresh one, a missing timestamp the
 * current time. Throws SecretFormatError for an unusable secret, Error for missing inputs (URL).
 */
export function sign(scheme: SchemeId, input: SignInput): Record<string, string> {
  const resolved = { ...input, id: input.id ?? freshId(scheme), timestamp: input.timestamp ?? Math.floor(Date.now() / 1000) }
  const headers = moduleFor(scheme).sign(resolved)
  const more = input.additionalSecrets ?? []
  if (more.length === 0) return headers
  const meta = SCHEMES[scheme]
  const name = meta.signatureHeader
  if (!meta.multipleSignatures || name === null) throw new Error(`${meta.label} carries one signature per request: it cannot sign with ${more.length + 1} secrets (schemes that can: ${SCHEME_IDS.filter((id) => SCHEMES[id].multipleSignatures).join(', ')})`)
  const values = more.map((secret) => moduleFor(scheme).sign({ ...resolved, secret })[name] ?? '')
  return { ...headers, [name]: joinSignatures(scheme, headers[name] ?? '', values) }
}

// One header, several signatures, in each scheme's own grammar: Standard Webhooks / Svix list
// `v1,…` entries separated by spaces; Stripe and Paddle repeat the signature key after one
// timestamp (`t=…,v1=a,v1=b`, `ts=…;h1=a;h1=b`); PagerDuty lists `v1=a,v1=b`.
function joinSignatures(scheme: SchemeId, first: string, more: string[]): string {
  switch (scheme) {
    case 'standard-webhooks':
    case 'svix':
      return [first, ...more].join(' ')
    case 'stripe':
      return [first, ...more.map((v) => v.replace(/^t=\d+,/, ''))].join(',')
    case 'paddle':
      return [first, ...more.map((v) => v.replace(/^ts=\d+;/, ''))].join(';')
    case 'pagerduty':
      return [first, ...more].join(',')
    default:
      throw new Error(`${SCHEMES[scheme].label} carries one signature per request`)
  }
}

/**
 * The body to send: for a scheme whose signature travels in the body (Mailgun) the body with it,
 * else the body as given. `transform` changes the signature after signing (corrupt-signature).
 * Throws like sign() for an unusable secret, and for a body the scheme cannot carry a signature in.
 */
export function signBody(scheme: SchemeId, input: Pick<SignInput, 'body' | 'secret' | 'timestamp'>, transform?: (signature: string) => string): Buffer {
  if (SCHEMES[scheme].signatureIn !== 'body') return Buffer.from(input.body)
  return mailgunSignBody({ ...input, timestamp: input.timestamp ?? Math.floor(Date.now() / 1000) }, transform)
}

/** Never throws for bad requests: every failure is a VerifyResult with a reason and a sentence. */
export function verify(scheme: SchemeId, input: VerifyInput): VerifyResult {
  return moduleFor(scheme).verify(input)
}
export { freshId } from './ids'
