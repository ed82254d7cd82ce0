import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { commandArgs, optionsHelp, type OptionSpecs } from '../../../electron/cli/command-args'
import { UsageError } from '../../../electron/cli/usage-error'

const OPTIONS = {
  to: { type: 'string', value: 'URL', help: 'where to send' },
  header: { type: 'string', multiple: true, value: 'H', help: 'an extra header; repeatable' },
  port: { type: 'port', short: 'p', value: 'P', help: 'port to listen on' },
  timeout: { type: 'number', whole: true, min: 1, value: 'MS', help: 'longest wait' },
  tolerance: { type: 'number', min: 0, default: 250, value: 'N', help: 'allowed difference' },
  limit: { type: 'number', whole: true, min: 1, max: 500, value: 'N', help: 'at most N rows' },
  keep: { type: 'number', whole: true, none: true, min: 1, max: 30, value: 'N', help: 'keep N days' },
  clock: { type: 'enum', values: ['virtual', 'real'], default: 'virtual', value: 'C', help: 'how time passes' },
  kind: { type: 'enum', values: ['ping', 'crc'], unknown: 'handshake', value: 'KIND', help: 'a handshake' },
  status: { type: 'list', values: ['valid', 'invalid'], value: 'S', help: 'comma-separated' },
  json: { type: 'boolean', help: 'print JSON' },
} as const satisfies OptionSpecs

const parse = (args: string[]) => commandArgs('demo', 'Usage: demo\n{options}\nEnd.', args, OPTIONS, true)

function errorOf(args: string[]): string {
  try {
    parse(args)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error(`${args.join(' ')} was accepted`)
}

describe('options declared once', () => {
  it('gives back typed values, with the declared defaults for what was not given', () => {
    const parsed = parse(['-p', '8080', '--timeout', '30', '--limit', '500', '--keep', 'none', '--kind', 'crc', '--status', 'VALID, invalid', '--header', 'a: 1', '--header', 'b: 2', '--json', 'file.har'])
    expect(parsed?.values).toEqual({ to: undefined, header: ['a: 1', 'b: 2'], port: 8080, timeout: 30, tolerance: 250, limit: 500, keep: null, clock: 'virtual', kind: 'crc', status: ['valid', 'invalid'], json: true })
    expect(parsed?.positionals).toEqual(['file.har'])
    expect(parse([])?.values.json).toBe(false)
  })

  it('says in one line which option is wrong and what it takes', () => {
    expect(errorOf(['--port', 'eighty'])).toBe('demo: --port must be a port number 0–65535, got "eighty"')
    expect(errorOf(['--port', '65536'])).toBe('demo: --port must be a port number 0–65535, got "65536"')
    expect(errorOf(['--timeout', '0'])).toBe('demo: --timeout must be a positive whole number, got "0"')
    expect(errorOf(['--tolerance=-5'])).toBe('demo: --tolerance must be a non-negative number, got "-5"')
    expect(errorOf(['--limit', '501'])).toBe('demo: --limit takes a whole number from 1 to 500; "501" is not one')
    expect(errorOf(['--keep', '2.5'])).toBe('demo: --keep takes a whole number from 1 to 30, or "none"; "2.5" is not one')
    expect(errorOf(['--clock', 'fast'])).toBe('demo: --clock must be one of virtual, real, got "fast"')
    expect(errorOf(['--kind', 'nope'])).toBe('demo: unknown handshake "nope" (one of ping, crc)')
    expect(errorOf(['--status', 'valid,bogus'])).toBe('demo: --status "bogus" is not one of valid, invalid')
    expect(errorOf(['--status', ' , '])).toBe('demo: --status takes valid, invalid; it was empty')
    expect(errorOf(['--frobnicate'])).toMatch(/^demo: Unknown option '--frobnicate'[^\n]*$/)
  })

  it('names where the options are for a mistyped one, not how to pass a dash-led positional', () => {
    expect(errorOf(['--frobnicate'])).toBe("demo: Unknown option '--frobnicate'; `hookloop demo --help` lists the options")
  })

  it('prints --help from the same declaration, in place of {options}, and answers null', () => {
    const out = new PassThrough()
    expect(commandArgs('demo', 'Usage: demo\n{options}\nEnd.', ['--help'], OPTIONS, false, out)).toBeNull()
    const text = String(out.read())
    expect(text.startsWith('Usage: demo\n')).toBe(true)
    expect(text.endsWith('\nEnd.\n')).toBe(true)
    expect(text).toContain(optionsHelp(OPTIONS))
    const lines = optionsHelp(OPTIONS).split('\n')
    expect(lines).toContain('  -p, --port P       port to listen on')
    expect(lines).toContain('      --tolerance N  allowed difference (default 250)')
    expect(lines).toContain('      --clock C      how time passes (one of virtual, real; default virtual)')
    expect(lines).toContain('      --status S     comma-separated (any of valid, invalid)')
    expect(lines.at(-1)).toBe('  -h, --help         show this help')
  })
})

describe('an option read from its environment variable', () => {
  const SERVER = {
    port: { type: 'port', value: 'P', env: 'HOOKLOOP_DEMO_PORT', default: 0, help: 'port' },
  } as const satisfies OptionSpecs
  const withEnv = (value: string | undefined, args: string[]) => {
    const before = process.env.HOOKLOOP_DEMO_PORT
    if (value === undefined) delete process.env.HOOKLOOP_DEMO_PORT
    else process.env.HOOKLOOP_DEMO_PORT = value
    try {
      return commandArgs('demo', 'Usage: demo\n{options}', args, SERVER)?.values.port
    } finally {
      if (before === undefined) delete process.env.HOOKLOOP_DEMO_PORT
      else process.env.HOOKLOOP_DEMO_PORT = before
    }
  }

  it('is read when the option is not given, the option wins when it is, and an empty one counts as unset', () => {
    expect(withEnv('8080', [])).toBe(8080)
    expect(withEnv('8080', ['--port', '9090'])).toBe(9090)
    expect(withEnv('  ', [])).toBe(0)
    expect(withEnv(undefined, [])).toBe(0)
  })

  it('is checked like the option, the message naming the variable', () => {
    expect(() => withEnv('eighty', [])).toThrow(new UsageError('demo: $HOOKLOOP_DEMO_PORT must be a port number 0–65535, got "eighty"'))
  })

  it('is named in the help', () => {
    expect(optionsHelp(SERVER)).toContain('(default 0; env HOOKLOOP_DEMO_PORT)')
  })
})

describe('a switch read from its environment variable', () => {
  const SWITCH = { accounts: { type: 'boolean', env: 'HOOKLOOP_DEMO_SWITCH', help: 'on' } } as const satisfies OptionSpecs
  const withEnv = (value: string | undefined, args: string[]) => {
    const before = process.env.HOOKLOOP_DEMO_SWITCH
    if (value === undefined) delete process.env.HOOKLOOP_DEMO_SWITCH
    else process.env.HOOKLOOP_DEMO_SWITCH = value
    try {
      return commandArgs('demo', 'Usage: demo\n{options}', args, SWITCH)?.values.accounts
    } finally {
      if (before === undefined) delete process.env.HOOKLOOP_DEMO_SWITCH
      else process.env.HOOKLOOP_DEMO_SWITCH = before
    }
  }

  it('is on for 1, true or yes, off for 0, false, no or unset, and on whenever the option is given', () => {
    expect(['1', 'true', 'YES'].map((v) => withEnv(v, []))).toEqual([true, true, true])
    expect(['0', 'false', 'no', '', undefined].map((v) => withEnv(v, []))).toEqual([false, false, false, false, false])
    expect(withEnv(undefined, ['--accounts'])).toBe(true)
  })

  it('refuses any other word, naming the variable', () => {
    expect(() => withEnv('maybe', [])).toThrow(new UsageError('demo: $HOOKLOOP_DEMO_SWITCH must be 1 or 0 (true, false, yes, no), got "maybe"'))
  })
})
