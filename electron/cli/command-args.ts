// A subcommand's options, declared once: each one's name, short letter, type, default, value name
// and help line. parseArgs reads them; the values come back typed and checked (a port, a number in
// its range, one of the allowed words), a bad one as a one-line UsageError naming the option
// ("trigger: --clock must be one of virtual, real, got "x""); --help prints the options from the
// same declaration in place of `{options}` in the command's text.
import { parseArgs } from 'node:util'
import { UsageError } from './usage-error'

interface Described {
  short?: string
  help: string
}
/** `env`: the environment variable read when the option is not given (a server's configuration). */
type Valued = Described & { value: string; env?: string }

export type OptionSpec =
  /** `env`: 1, true or yes turn it on; 0, false or no leave it off. */
  | (Described & { type: 'boolean'; env?: string })
  | (Valued & { type: 'string'; default?: string; multiple?: boolean })
  /** A decimal number from `min` to `max`; `whole` only digits; `none` also takes the word "none" (null). */
  | (Valued & { type: 'number'; default?: number; min: number; max?: number; whole?: boolean; none?: boolean })
  | (Valued & { type: 'port'; default?: number })
  /** One of `values`; a bad one is `unknown <unknown> "x"` when the declaration names what it is. */
  | (Valued & { type: 'enum'; values: readonly string[]; default?: string; unknown?: string })
  /** Comma-separated words, each one of `values` (in any case) when they are given. */
  | (Valued & { type: 'list'; values?: readonly string[] })

export type OptionSpecs = Record<string, OptionSpec>

type Defaulted<S, T> = S extends { default: unknown } ? T : T | undefined
type ValueOf<S> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'string'; multiple: true }
    ? string[] | undefined
    : S extends { type: 'string' }
      ? Defaulted<S, string>
      : S extends { type: 'number'; none: true }
        ? number | null | undefined
        : S extends { type: 'number' | 'port' }
          ? Defaulted<S, number>
          : S extends { type: 'enum' | 'list'; values: readonly (infer V)[] }
            ? S extends { type: 'enum' }
              ? Defaulted<S, V>
              : V[] | undefined
            : string[] | undefined
export type OptionValues<O extends OptionSpecs> = { -readonly [K in keyof O]: ValueOf<O[K]> }

const HELP_OPTION = { type: 'boolean', short: 'h', help: 'show this help' } as const satisfies OptionSpec
const HELP_WIDTH = 100

/** `from`: where the value came from, as a message names it (`--port`, `$HOOKLOOP_PORT`). */
function checked(command: string, from: string, spec: OptionSpec, raw: string): unknown {
  const bad = (what: string) => new UsageError(`${command}: ${from} ${what}`)
  switch (spec.type) {
    case 'port':
      if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw bad(`must be a port number 0–65535, got "${raw}"`)
      return Number(raw)
    case 'number': {
      const text = raw.trim()
      if (spec.none && text === 'none') return null
      const n = Number(text)
      if (text !== '' && (spec.whole ? /^\d+$/.test(text) && Number.isSafeInteger(n) : Number.isFinite(n)) && n >= spec.min && n <= (spec.max ?? Infinity)) return n
      if (spec.max === undefined) throw bad(`must be a ${spec.min > 0 ? 'positive' : 'non-negative'} ${spec.whole ? 'whole ' : ''}number, got "${raw}"`)
      throw bad(`takes a ${spec.whole ? 'whole ' : ''}number from ${spec.min} to ${spec.max}${spec.none ? ', or "none"' : ''}; "${raw}" is not one`)
    }
    case 'enum':
      if (spec.values.includes(raw)) return raw
      if (spec.unknown) throw new UsageError(`${command}: unknown ${spec.unknown} "${raw}" (one of ${spec.values.join(', ')})`)
      throw bad(`must be one of ${spec.values.join(', ')}, got "${raw}"`)
    case 'list': {
      const words = raw.split(',').map((w) => (spec.values ? w.trim().toLowerCase() : w.trim())).filter(Boolean)
      if (!spec.values) return words
      if (words.length === 0) throw bad(`takes ${spec.values.join(', ')}; it was empty`)
      const stray = words.find((w) => !spec.values!.includes(w))
      if (stray !== undefined) throw new UsageError(`${command}: ${from} "${stray}" is not one of ${spec.values.join(', ')}`)
      return words
    }
    default:
      return raw
  }
}

function switchedOn(command: string, from: string, raw: string): boolean {
  const word = raw.toLowerCase()
  if (['1', 'true', 'yes'].includes(word)) return true
  if (['0', 'false', 'no'].includes(word)) return false
  throw new UsageError(`${command}: ${from} must be 1 or 0 (true, false, yes, no), got "${raw}"`)
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line)
        line = word
      } else line = line ? `${line} ${word}` : word
    }
    lines.push(line)
  }
  return lines
}

/** The options part of a command's --help: one row per option, its allowed values and default said after its help. */
export function optionsHelp(options: OptionSpecs): string {
  const specs: [string, OptionSpec][] = Object.entries({ ...options, help: HELP_OPTION })
  const indent = specs.some(([, s]) => s.short) ? '    ' : ''
  const names = specs.map(([name, s]) => `  ${s.short ? `-${s.short}, ` : indent}--${name}${'value' in s ? ` ${s.value}` : ''}`)
  const column = Math.min(Math.max(...names.map((n) => n.length)), 26) + 2
  return specs
    .flatMap(([, s], i) => {
      const about = [...('values' in s && s.values ? [`${s.type === 'list' ? 'any' : 'one'} of ${s.values.join(', ')}`] : []), ...('default' in s && s.default !== undefined ? [`default ${s.default}`] : []), ...('env' in s && s.env ? [`env ${s.env}`] : [])]
      const [first = '', ...rest] = wrap(about.length ? `${s.help} (${about.join('; ')})` : s.help, HELP_WIDTH - column)
      const name = names[i]!
      const head = name.length < column ? `${name.padEnd(column)}${first}` : [name, `${' '.repeat(column)}${first}`].join('\n')
      return [head, ...rest.map((line) => ' '.repeat(column) + line)]
    })
    .join('\n')
}

/** The parsed values (typed and checked) and positionals, or null when --help was printed (to `out`). With `positionals` a name (FILE), exactly one is required: it is `arg`. */
export function commandArgs<O extends OptionSpecs>(command: string, help: string, args: string[], options: O, positionals: boolean | string = false, out: NodeJS.WritableStream = process.stdout) {
  const config = Object.fromEntries(
    Object.entries({ ...options, help: HELP_OPTION }).map(([name, s]) => [name, { type: s.type === 'boolean' ? 'boolean' : 'string', ...(s.short ? { short: s.short } : {}), ...(s.type === 'string' && s.multiple ? { multiple: true } : {}) }] as const),
  )
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: positionals !== false, strict: true, options: config })
  } catch (error) {
    // parseArgs's advice on a dash-led positional misleads for a mistyped option: name where the options are.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[0]
    throw new UsageError(`${command}: ${unknown ? `${unknown}; \`hookloop ${command} --help\` lists the options` : (error as Error).message.replace(/\s*\n\s*/g, ' ')}`)
  }
  if (parsed.values.help) {
    out.write(help.replace('{options}', optionsHelp(options)) + '\n')
    return null
  }
  const [arg = '', ...extra] = parsed.positionals
  if (typeof positionals === 'string' && (!arg || extra.length > 0)) throw new UsageError(`${command}: give exactly one ${positionals} (hookloop ${command} --help)`)
  const values: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(options)) {
    const raw = parsed.values[name]
    // An option given wins over its environment variable; an empty variable counts as unset.
    const fromEnv = 'env' in spec && spec.env ? process.env[spec.env]?.trim() || undefined : undefined
    if (spec.type === 'boolean') values[name] = raw === true || (fromEnv !== undefined && 'env' in spec && switchedOn(command, `$${spec.env}`, fromEnv))
    else if (typeof raw === 'string') values[name] = checked(command, `--${name}`, spec, raw)
    else if (fromEnv !== undefined && 'env' in spec) values[name] = checked(command, `$${spec.env}`, spec, fromEnv)
    else values[name] = raw ?? ('default' in spec ? spec.default : undefined)
  }
  return { values: values as OptionValues<O>, positionals: parsed.positionals, arg }
}
