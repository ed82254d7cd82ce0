// Argument handling shared by `hookloop sign`, `verify`, `check` and `replay`: the options they take,
// the custom-scheme settings, and reading files as raw bytes. Every problem is a UsageError (exit 2).
import type { CustomHmacOptions, SchemeId } from '../../shared/signatures'
import { SCHEME_IDS, isSchemeId } from '../../shared/signatures'
import { HANDSHAKE_KINDS } from '../../shared/receiver'
import type { OptionSpecs } from './command-args'
import { readFileOrUsage, UsageError } from './usage-error'

/** --scheme and the custom scheme's settings: sign, verify, check and replay take them. */
export const SCHEME_OPTIONS = {
  scheme: { type: 'string', value: 'S', help: `signature scheme: ${SCHEME_IDS.join(', ')}` },
  header: { type: 'string', value: 'NAME', help: 'custom scheme: the signature header (required)' },
  prefix: { type: 'string', value: 'TEXT', help: 'custom scheme: text before the signature, e.g. "sha256=" (default none)' },
  algorithm: { type: 'enum', values: ['sha1', 'sha256', 'sha512'], value: 'ALG', help: 'custom scheme: the hash, sha256 unless given' },
  encoding: { type: 'enum', values: ['hex', 'base64'], value: 'ENC', help: 'custom scheme: how the signature is written, hex unless given' },
  template: { type: 'string', value: 'TEXT', help: 'custom scheme: the signed bytes from {body} {timestamp} {id} {url} (default "{body}")' },
  'timestamp-header': { type: 'string', value: 'NAME', help: 'custom scheme: the header carrying the Unix timestamp ({timestamp})' },
  'id-header': { type: 'string', value: 'NAME', help: 'custom scheme: the header carrying the message id ({id})' },
} as const satisfies OptionSpecs

/** The verification handshake a provider makes before it delivers: check grades it, trigger makes it. */
export const HANDSHAKE_OPTION = { type: 'enum', values: HANDSHAKE_KINDS, unknown: 'handshake', value: 'KIND' } as const

/** What sign and verify both take. */
export const COMMON_OPTIONS = {
  ...SCHEME_OPTIONS,
  secret: { type: 'string', multiple: true, value: 'K', help: 'a secret, as the provider shows it (whsec_…, or whsk_… for Standard Webhooks\' Ed25519 v1a); repeat it for several at once, as during a rotation' },
  'body-file': { type: 'string', value: 'F', help: 'file holding the request body, its exact bytes ("-" reads stdin)' },
  url: { type: 'string', value: 'URL', help: 'public URL the request goes to (twilio, square; the tunnel URL, not 127.0.0.1)' },
} as const satisfies OptionSpecs

export function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing --${name}`)
  return value
}

export function requireScheme(value: string | undefined): SchemeId {
  const scheme = requireOption(value, 'scheme')
  if (!isSchemeId(scheme)) throw new UsageError(`unknown scheme "${scheme}" (schemes: ${SCHEME_IDS.join(', ')})`)
  return scheme
}

/** The file's bytes exactly as stored ("-" reads stdin). */
export function readBytes(path: string, name: string): Buffer {
  return readFileOrUsage(path, (why) => `cannot read --${name} ${path} (${why})`)
}

interface CustomValues {
  header?: string
  prefix?: string
  algorithm?: CustomHmacOptions['algorithm']
  encoding?: CustomHmacOptions['encoding']
  template?: string
  'timestamp-header'?: string
  'id-header'?: string
}

const CUSTOM_FLAGS = ['header', 'prefix', 'algorithm', 'encoding', 'template', 'timestamp-header', 'id-header'] as const

/** The custom scheme's settings from the flags; the flags are refused for any other scheme. */
export function customOptions(scheme: SchemeId, values: CustomValues, toleranceSeconds?: number): CustomHmacOptions | undefined {
  if (scheme !== 'custom') {
    const stray = CUSTOM_FLAGS.find((flag) => values[flag] !== undefined)
    if (stray) throw new UsageError(`--${stray} only applies to --scheme custom`)
    return undefined
  }
  const { algorithm = 'sha256', encoding = 'hex' } = values
  return {
    header: requireOption(values.header, 'header'),
    prefix: values.prefix,
    algorithm,
    encoding,
    signedTemplate: values.template,
    timestampHeader: values['timestamp-header'],
    idHeader: values['id-header'],
    toleranceSeconds,
  }
}
