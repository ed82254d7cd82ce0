// A schema of a larger document with its local $refs ("#/components/schemas/…") put in place, so
// the body checker (drift.ts) compiles it alone. A ref is resolved once and shared wherever it is
// used; a ref that leads back into itself is left a loop, which the checker names as unusable.
type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function pointed(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`a $ref outside its document (${ref})`)
  let node: unknown = document
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined
  }
  if (node === undefined) throw new Error(`a $ref to nothing (${ref})`)
  return node
}

export function resolveRefs(document: Json, schema: unknown, done = new Map<string, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(document, item, done))
  if (!isObject(schema)) return schema
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref
    const known = done.get(ref)
    if (known !== undefined) return known
    const target = pointed(document, ref)
    // Placed before its insides are resolved: a ref inside that names it again gets this very object.
    const out: Json = {}
    done.set(ref, out)
    Object.assign(out, resolveRefs(document, target, done))
    return out
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === 'example' || key === 'examples' || key === 'const' || key === 'enum' || key === 'default' ? value : resolveRefs(document, value, done)
  }
  return out
}

/**
 * The document cut to what a local $ref reaches: every component it names, and theirs, each once
 * (a recursive ref stays a ref). A few hundred KB of a provider's multi-MB document.
 */
export function reachable(document: Json, ref: string): Json {
  const out: Json = {}
  const seen = new Set<string>()
  const pending = [ref]
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect)
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) pending.push(value)
        else if (key !== 'example' && key !== 'examples' && key !== 'const' && key !== 'enum' && key !== 'default') collect(value)
      }
    }
  }
  while (pending.length > 0) {
    const next = pending.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    const target = pointed(document, next)
    // Placed at its own path in the cut document, so the ref reads the same there.
    let at = out
    const keys = next.slice(2).split('/').map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'))
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Json
    at[keys[keys.length - 1]!] = target
    collect(target)
  }
  return out
}
