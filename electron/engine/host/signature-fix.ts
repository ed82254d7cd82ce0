// The fix for each verdict reason, said to whoever configures the endpoint or the code that
// verifies. The verdict's own detail names the likely mistake (signatures/diagnose.ts found it by
// trying the classic ones); this says what to change.
import { SCHEMES, type SchemeId, type VerifyReason } from '../../../shared/signatures'

export function signatureFix(reason: VerifyReason, scheme: SchemeId): string {
  const meta = SCHEMES[scheme]
  const header = meta.signatureHeader ?? "the custom scheme's signature header"
  switch (reason) {
    case 'ok':
      return 'Nothing to fix: the signature is valid.'
    case 'missing_header':
      return `Make the sender sign its requests (${header}), or set the endpoint's scheme to the one the sender uses.`
    case 'malformed_header':
      return `The ${header} header does not have the ${meta.label} format: check that the sender and the endpoint use the same scheme.`
    case 'no_matching_version':
      return `The request carries no signature of a version ${meta.label} checks: update the sender or pick the scheme that matches it.`
    case 'signature_mismatch':
      return "Verify over the raw request bytes (before any JSON parsing) with the endpoint's signing secret, exactly as the provider shows it; during a rotation keep both secrets."
    case 'timestamp_too_old':
      return `The signed timestamp is older than the tolerance: sync the clocks, stop replaying old requests, or raise the endpoint's tolerance${meta.toleranceSeconds === null ? '' : ` (${meta.label} default ${meta.toleranceSeconds} s)`}.`
    case 'timestamp_too_new':
      return 'The signed timestamp is in the future: the sender\'s clock runs ahead; sync it (NTP) or raise the tolerance.'
    case 'bad_secret_format':
      return `The endpoint's secret is not in the form ${meta.label} expects${meta.secretFormat === 'whsec-base64' ? ' (whsec_ followed by base64)' : ''}: paste the secret exactly as the provider shows it.`
    case 'no_secret':
      return 'Give the endpoint its signing secret (the one the provider shows for this webhook).'
    case 'missing_url':
      return `${meta.label} signs the public URL the provider called: verify against that URL (the tunnel's), not 127.0.0.1.`
    case 'empty_body':
      return 'The body arrived empty: make the sender send it, and verify before any body parser consumes the stream.'
    case 'malformed_body':
      return `The body is not in the shape ${meta.label} signs: send it unchanged, in the content type the provider uses.`
    case 'bad_options':
      return "The custom scheme's settings are incomplete or contradict each other: fix the endpoint's custom signature settings."
    default: {
      const never: never = reason
      return `Unknown verdict ${String(never)}.`
    }
  }
}
