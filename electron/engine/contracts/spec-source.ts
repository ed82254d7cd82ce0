// Reading a spec: a file or an http(s) URL, YAML or JSON, with every $ref to another document
// brought into this one, so the parsers only ever follow refs inside one document. Why we bundle
// ourselves: the rule on remote hosts is ours to keep (a ref to http(s) is fetched only when the
// person allowed it, and a refused one is named), and both parsers then read the same thing.
// Referenced documents sit under BUNDLED_KEY (an `x-` extension both formats allow at the top).
import { readFile } from 'node:fs/promises'
import { resolve as resolvePath } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { load, YAMLException } from 'js-yaml'
import { jsonPointer, SpecError } from './spec-error'

export const BUNDLED_KEY = 'x-hookloop-bundled'

export interface SpecSource {
  /** The file or URL as the person gave it: what messages name. */
  location: string
  text: string
  /** The spec with every referenced document inlined under BUNDLED_KEY. */
  document: Record<string, unknown>
  /** True when a referenced document was inlined: lines then refer to more than `text`. */
  bundled: boolean
}

export interface LoadSpecOptions {
  /** Fetch $refs that point to an http(s) host (default: refuse them, naming the ref). */
  allowRemoteRefs?: boolean
  /** Node's fetch unless a caller gives another. */
  fetch?: typeof fetch
}

const FETCH_TIMEOUT_MS = 30_000

export const isHttpUrl = (text: string) => /^https?:\/\//i.test(text)

async function readText(url: URL, shown: string, options: LoadSpecOptions, from?: { file: string; pointer: string }): Promise<string> {
  const at = from ?? { file: shown }
  if (url.protocol === 'file:') {
    try {
      return await readFile(fileURLToPath(url), 'utf8')
    } catch (error) {
      throw new SpecError(`cannot read ${fileURLToPath(url)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, at)
    }
  }
  let response: Response
  try {
    response = await (options.fetch ?? fetch)(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new SpecError(`cannot fetch ${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, at)
  }
  if (!response.ok) throw new SpecError(`cannot fetch ${url.href}: HTTP ${response.status}`, at)
  return response.text()
}

function parseText(text: string, shown: string): unknown {
  try {
    // JSON is YAML: one parser reads both, and says the line of a mistake in either.
    return load(text, { filename: shown })
  } catch (error) {
    if (error instanceof YAMLException) {
      throw new SpecError(`not valid YAML or JSON: ${error.reason}`, { file: shown, line: error.mark ? error.mark.line + 1 : undefined })
    }
    throw error
  }
}

/** The first line (1-based) of `text` that writes this $ref, for messages about it. */
export function lineOfRef(text: string, ref: string): number | undefined {
  const lines = text.split('\n')
  const at = lines.findIndex((line) => line.includes('$ref') && line.includes(ref))
  return at === -1 ? undefined : at + 1
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether a JSON pointer ("/a/b~1c") names something in the document. */
function pointerExists(document: unknown, pointer: string): boolean {
  let current = document
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(current) && /^\d+$/.test(key) && Number(key) < current.length) current = current[Number(key)]
    else if (isObject(current) && Object.prototype.hasOwnProperty.call(current, key)) current = current[key]
    else return false
  }
  return true
}

export async function loadSpecSource(spec: string, options: LoadSpecOptions = {}): Promise<SpecSource> {
  const rootUrl = isHttpUrl(spec) ? new URL(spec) : pathToFileURL(resolvePath(spec))
  const text = await readText(rootUrl, spec, options)
  const document = parseText(text, spec)
  if (!isObject(document)) throw new SpecError('the spec is not a YAML or JSON object', { file: spec, line: 1 })
  const included = new Map<string, number>()
  const inlined: Record<string, unknown> = {}

  /** Rewrites the refs of one document: internal ones under `prefix`, external ones to their inlined copy. */
  async function rewrite(node: unknown, base: URL, prefix: string, path: (string | number)[], file: string, fileText: string): Promise<void> {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) await rewrite(item, base, prefix, [...path, i], file, fileText)
      return
    }
    if (!isObject(node)) return
    const ref = node.$ref
    if (typeof ref === 'string') {
      if (ref.startsWith('#')) {
        if (prefix) node.$ref = `#${prefix}${ref.slice(1)}`
      } else {
        const where = { file, line: lineOfRef(fileText, ref), pointer: jsonPointer([...path, '$ref']) }
        let target: URL
        try {
          target = new URL(ref, base)
        } catch {
          throw new SpecError(`the $ref "${ref}" is not a URL or a path`, where)
        }
        const fragment = decodeURIComponent(target.hash.replace(/^#/, ''))
        target.hash = ''
        if (target.protocol === 'http:' || target.protocol === 'https:') {
          if (!options.allowRemoteRefs) throw new SpecError(`the $ref "${ref}" points to ${target.href} on a remote host: refused (fetch it with --allow-remote-refs)`, where, ref)
        } else if (target.protocol !== 'file:') {
          throw new SpecError(`the $ref "${ref}" uses ${target.protocol}; Hookloop follows files and http(s) URLs`, where)
        }
        if (target.href === rootUrl.href) {
          // A part that refers back into the spec itself: the spec is the document's root.
          if (fragment && !pointerExists(document, fragment)) throw new SpecError(`the $ref "${ref}" points to ${fragment}, which the spec does not have`, where)
          node.$ref = `#${fragment}`
          return walkChildren(node, base, prefix, path, file, fileText)
        }
        const index = await include(target, where)
        // Checked here, while the ref still reads as written: past this point it names our copy.
        if (fragment && !pointerExists(inlined[String(index)], fragment)) throw new SpecError(`the $ref "${ref}" points to ${fragment}, which ${target.protocol === 'file:' ? fileURLToPath(target) : target.href} does not have`, where)
        node.$ref = `#/${BUNDLED_KEY}/${index}${fragment}`
      }
    }
    await walkChildren(node, base, prefix, path, file, fileText)
  }

  async function walkChildren(node: Record<string, unknown>, base: URL, prefix: string, path: (string | number)[], file: string, fileText: string): Promise<void> {
    // A `$ref` that is not a string is a field named so (a schema's property): walked like any other.
    for (const [key, value] of Object.entries(node)) if (key !== '$ref' || typeof value !== 'string') await rewrite(value, base, prefix, [...path, key], file, fileText)
  }

  async function include(url: URL, from: { file: string; pointer: string }): Promise<number> {
    const known = included.get(url.href)
    if (known !== undefined) return known
    const index = included.size
    // Reserved before reading: documents that refer to each other are read once each.
    included.set(url.href, index)
    const shown = url.protocol === 'file:' ? fileURLToPath(url) : url.href
    const partText = await readText(url, shown, options, from)
    const part = parseText(partText, shown)
    // In place before its own refs are followed: a document that refers back to this one finds it.
    inlined[String(index)] = part
    await rewrite(part, url, `/${BUNDLED_KEY}/${index}`, [], shown, partText)
    return index
  }

  await rewrite(document, rootUrl, '', [], spec, text)
  if (included.size > 0) document[BUNDLED_KEY] = inlined
  return { location: spec, text, document, bundled: included.size > 0 }
}
