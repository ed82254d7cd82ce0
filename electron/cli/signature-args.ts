// Argument handling shared by `hookloop sign` and `hookloop verify`: the options both take, the
// custom-scheme settings, and reading files as raw bytes. Every problem is a UsageError (exit 2).
import type { ParseArgsConfig } from 'node:util'
import { parseArgs } from 'node:util'
import type { CustomHmacOptions, SchemeId } from '../../shared/signatures'
import { SCHEME_IDS, isSchemeId } from '../../shared/signatures'
import { readFileOrUsage, UsageError } from './usage-error'

export const COMMON_OPTIONS = {
  scheme: { type: 'string' },
  secret: { type: 'string', multiple: true },
  'body-file': { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string' },
  prefix: { type: 'string' },
  algorithm: { type: 'string' },
  encoding: { type: 'string' },
  template: { type: 'string' },
  'timestamp-header': { type: 'string' },
  'id-header': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

export const CUSTOM_HELP = `Custom scheme (--scheme custom):
  --header NAME            signature header (required)
  --prefix TEXT            text before the signature, e.g. "sha256=" (default none)
  --algorithm ALG          sha1 | sha256 | sha512 (default sha256)
  --encoding ENC           hex | base64 (default hex)
  --template TEXT          signed bytes: {body} {timestamp} {id} {url} (default "{body}")
  --timestamp-header NAME  header carrying the Unix timestamp ({timestamp})
  --id-header NAME         header carrying the message id ({id})`

export const SCHEME_LIST = `Schemes: ${SCHEME_IDS.join(', ')}.`

type Options = NonNullable<ParseArgsConfig['options']>

function parseStrict<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true as const, allowPositionals: false as const }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error))
  }
}

/**
 * parseArgs with its errors turned into one-line usage errors. With --help it prints the help and
 * answers undefined: the command then exits 0.
 */
export function parseOptions<T extends Options>(args: string[], options: T, help: string) {
  const values = parseStrict(args, options)
  if ((values as { help?: boolean }).help) {
    process.stdout.write(help + '\n')
    return undefined
  }
  return values
}

export function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing --${name}`)
  return value
}

export function requireScheme(value: string | undefined): SchemeId {
  const scheme = requireOption(value, 'scheme')
  if (!isSchemeId(scheme)) throw new UsageError(`unknown scheme "${scheme}" (schemes: ${SCHEME_IDS.join(', ')})`)
  return scheme
}

/** Whole Unix seconds, as --timestamp and --now take them. */
export function parseUnixOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d{1,12}$/.test(value)) throw new UsageError(`--${name} must be Unix time in whole seconds, got "${value}"`)
  return Number(value)
}

/** The file's bytes exactly as stored ("-" reads stdin). */
export function readBytes(path: string, name: string): Buffer {
  return readFileOrUsage(path, (why) => `cannot read --${name} ${path} (${why})`)
}

interface CustomValues {
  header?: string
  prefix?: string
  algorithm?: string
  encoding?: string
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
  const algorithm = values.algorithm ?? 'sha256'
  if (algorithm !== 'sha1' && algorithm !== 'sha256' && algorithm !== 'sha512') throw new UsageError(`--algorithm must be sha1, sha256 or sha512, got "${algorithm}"`)
  const encoding = values.encoding ?? 'hex'
  if (encoding !== 'hex' && encoding !== 'base64') throw new UsageError(`--encoding must be hex or base64, got "${encoding}"`)
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
