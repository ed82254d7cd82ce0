import path from 'node:path'
import ts from 'typescript'
import { expect, it } from 'vitest'

// Checks JSON values against a provider's published TypeScript types the way a consumer's code
// would meet them: each value is written into a source file as a literal of the named type and
// compiled (strict, exactOptionalPropertyTypes). A required field missing, a field the type does
// not have, or a value of the wrong type is a compiler error, reported under the value's name.

const ROOT = path.resolve(__dirname, '../../../../..')

const PARSED = new Map<string, ts.SourceFile>()

export interface TypedValue {
  /** The name errors are reported under (an event type). */
  name: string
  /** A type expression over the imports (`Stripe.Invoice`, `IEventsResponse<ITransactionNotificationResponse>`). */
  type: string
  value: unknown
}

/**
 * A package whose types are an ambient `declare module '<name>'` (stripe 16's): its declaration
 * file joins the program and `<name>`, imported by the checked source, resolves to that
 * declaration instead of the package installed under the name.
 */
export interface AmbientTypes {
  module: string
  file: string
}

/** The compiler's complaints per value name ('import' for the import lines); every name is a key. */
export function typeErrors(imports: string[], values: TypedValue[], ambient?: AmbientTypes): Record<string, string[]> {
  const file = path.join(ROOT, 'test/unit/shared/event-catalog', `type-check.${process.pid}.${Math.random().toString(36).slice(2)}.ts`)
  const lines = values.map((v, i) => `export const v${i}: ${v.type} = ${JSON.stringify(v.value)}`)
  const source = [...imports, ...lines].join('\n')
  const options: ts.CompilerOptions = { strict: true, exactOptionalPropertyTypes: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, esModuleInterop: true, skipLibCheck: true, types: [] }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  // The source lives only in memory: nothing is written into the tree.
  host.readFile = (f) => (path.resolve(f) === file ? source : readFile(f))
  host.fileExists = (f) => path.resolve(f) === file || fileExists(f)
  host.getSourceFile = (f, lang, ...rest) => {
    if (path.resolve(f) === file) return ts.createSourceFile(f, source, lang)
    // The declaration files do not change between checks: parse each once per test file.
    const key = `${f}\0${typeof lang === 'object' ? `${lang.languageVersion}:${lang.impliedNodeFormat ?? ''}` : lang}`
    let parsed = PARSED.get(key)
    if (!parsed) {
      parsed = getSourceFile(f, lang, ...rest)
      if (parsed) PARSED.set(key, parsed)
    }
    return parsed
  }
  if (ambient) {
    host.resolveModuleNames = (names, containing, _reused, redirected, opts) =>
      names.map((name) => (name === ambient.module && path.resolve(containing) === file ? undefined : ts.resolveModuleName(name, containing, opts, host, undefined, redirected).resolvedModule))
  }
  const program = ts.createProgram(ambient ? [file, ambient.file] : [file], options, host)
  const out: Record<string, string[]> = Object.fromEntries(values.map((v) => [v.name, []]))
  const sf = program.getSourceFile(file)!
  for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
    const line = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').slice(-3).join(' / ')
    const key = line < imports.length ? 'import' : values[line - imports.length]!.name
    ;(out[key] ??= []).push(message)
  }
  return out
}

/** Every catalog event at once, its body checked by `checks`: the compiler's complaints per event type. */
function catalogTypeErrors(imports: string[], events: readonly { type: string }[], checks: (type: string) => TypedValue | TypedValue[]): Record<string, string[]> {
  return typeErrors(imports, events.flatMap((e) => checks(e.type)))
}

/** Every event type of a catalog with nothing against it: what a check of the whole catalog must find. */
export function noErrorsFor(events: readonly { type: string }[]): Record<string, string[]> {
  return Object.fromEntries(events.map((e) => [e.type, []]))
}

/** The test that every event of a catalog compiles: `checks` gives an event's checks by its type. */
export function itCompilesEveryEvent(title: string, imports: string[], events: readonly { type: string }[], checks: (type: string) => TypedValue | TypedValue[]): void {
  it(title, () => {
    expect(catalogTypeErrors(imports, events, checks)).toEqual(noErrorsFor(events))
  })
}

/** A body that wraps its event, checked twice under one name: the event as `type`, the whole body as `wrapper<type>`. */
export function wrappedChecks(name: string, type: string, wrapper: string, event: unknown, body: unknown): TypedValue[] {
  return [
    { name, type, value: event },
    { name, type: `${wrapper}<${type}>`, value: body },
  ]
}

/** An import path for a .d.ts file inside node_modules that the package's exports do not name. */
export function nodeModulesPath(relative: string): string {
  return path.join(ROOT, 'node_modules', relative)
}
