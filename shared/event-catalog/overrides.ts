// Overrides by path: `data.object.amount=500` sets one field of the body a provider sends. The
// value is JSON when it parses as JSON (500, true, null, {"a":1}, "quoted"), else the text itself.
// Paths name the body; the part the envelope builds per attempt (ids, times) is not the payload,
// so a path must lead into the payload (below `prefix`, the payload's place in the body).

export interface Override {
  path: string[]
  value: unknown
}

export class OverrideError extends Error {
  override readonly name = 'OverrideError'
}

export function parseOverride(text: string): Override {
  const eq = text.indexOf('=')
  if (eq <= 0) throw new OverrideError(`override "${text}" is not PATH=VALUE (e.g. data.object.amount=500)`)
  const path = text.slice(0, eq).split('.')
  if (path.some((p) => p === '')) throw new OverrideError(`override "${text}": the path has an empty segment`)
  const raw = text.slice(eq + 1)
  let value: unknown = raw
  try {
    value = JSON.parse(raw) as unknown
  } catch {
    // Not JSON: the text is the value.
  }
  return { path, value }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object'
}

/** A copy of `payload` with every override applied; `prefix` is the payload's path in the body ('' = the body). */
export function applyOverrides(payload: unknown, overrides: readonly Override[], prefix: string): unknown {
  const head = prefix === '' ? [] : prefix.split('.')
  let root: unknown = structuredClone(payload)
  for (const o of overrides) {
    const shown = o.path.join('.')
    if (head.some((segment, i) => o.path[i] !== segment)) {
      throw new OverrideError(`override ${shown}: the payload sits at "${prefix}" of this provider's body, which Hookloop builds around it per attempt; use a path starting with ${prefix}.`)
    }
    const path = o.path.slice(head.length)
    if (path.length === 0) {
      root = o.value
      continue
    }
    if (!isRecord(root)) throw new OverrideError(`override ${shown}: the payload is not an object`)
    let node: Record<string, unknown> = root
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i] as string
      const next = node[key]
      if (next === undefined) node[key] = /^\d+$/.test(path[i + 1] ?? '') ? [] : {}
      else if (!isRecord(next)) throw new OverrideError(`override ${shown}: ${[...head, ...path.slice(0, i + 1)].join('.')} is ${JSON.stringify(next)}, not an object`)
      node = node[key] as Record<string, unknown>
    }
    node[path[path.length - 1] as string] = o.value
  }
  return root
}
