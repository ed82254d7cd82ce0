import type { CustomHmacOptions, SignInput, VerifyInput, VerifyResult } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'
import { fail } from './result'
import type { ResolvedSignInput, SchemeModule } from './scheme'
import { placeholders } from './template'

// The configurable scheme for providers without a preset: header, prefix, algorithm, encoding
// and signed template come from CustomHmacOptions.
const meta = SCHEMES.custom
const ALGORITHMS = ['sha1', 'sha256', 'sha512']
const ENCODINGS = ['hex', 'base64']

/** The module for these options, or a sentence saying what is wrong with them. */
export function customModule(options: CustomHmacOptions | undefined): SchemeModule | string {
  if (!options) return 'the custom scheme needs its options (header, algorithm, encoding)'
  const header = options.header?.trim().toLowerCase()
  if (!header) return 'the custom scheme needs the name of its signature header'
  if (!ALGORITHMS.includes(options.algorithm)) return `algorithm "${String(options.algorithm)}" is not one of ${ALGORITHMS.join(', ')}`
  if (!ENCODINGS.includes(options.encoding)) return `encoding "${String(options.encoding)}" is not one of ${ENCODINGS.join(', ')}`
  const template = options.signedTemplate ?? '{body}'
  const uses = placeholders(template)
  const timestampHeader = options.timestampHeader?.trim().toLowerCase() || undefined
  const idHeader = options.idHeader?.trim().toLowerCase() || undefined
  if (uses.has('timestamp') && !timestampHeader) return 'the template signs {timestamp} but no timestamp header is set'
  if (uses.has('id') && !idHeader) return 'the template signs {id} but no id header is set'
  if (options.toleranceSeconds !== undefined && !timestampHeader) return 'a tolerance needs a timestamp header to check'
  return hmacScheme(meta, {
    signatureHeader: header,
    prefix: options.prefix ?? '',
    algorithm: options.algorithm,
    encoding: options.encoding,
    template,
    timestampHeader,
    idHeader,
    tolerance: { seconds: options.toleranceSeconds ?? null, mode: 'both' },
  })
}

export const custom: SchemeModule = {
  sign(input: ResolvedSignInput & SignInput): Record<string, string> {
    const module = customModule(input.custom)
    if (typeof module === 'string') throw new Error(`Custom HMAC: ${module}`)
    return module.sign(input)
  },
  verify(input: VerifyInput): VerifyResult {
    const module = customModule(input.custom)
    if (typeof module === 'string') return fail(meta.id, 'bad_options', `The custom HMAC settings are incomplete: ${module}.`)
    return module.verify(input)
  },
}
