// "Did you mean …?" for unknown fields: walks the schema along the path of the problem (through
// arrays, optionals, defaults and tagged unions, choosing the branch the document's own tag
// names) to the object that refused the key, and finds the closest field it does know.
// Where the walk cannot see (a field validated by another area's own function), it says nothing.
import type { z } from 'zod'

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  options?: z.ZodType[]
  discriminator?: string
  values?: unknown[]
}

function def(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema
  for (let i = 0; i < 20; i++) {
    const d = def(current)
    if (d.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(d.type)) current = d.innerType
    else if (d.type === 'pipe' && d.in) current = d.in
    else break
  }
  return current
}

/** The branch of a union the value belongs to: by its tag, or the only object-shaped branch. */
function branch(schema: z.ZodType, value: unknown): z.ZodType | undefined {
  const s = unwrap(schema)
  const d = def(s)
  if (d.type !== 'union') return s
  const options = (d.options ?? []).map(unwrap)
  if (d.discriminator !== undefined) {
    const tag = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[d.discriminator] : undefined
    return options.find((o) => {
      const field = def(o).shape?.[d.discriminator as string]
      return field !== undefined && (def(unwrap(field)).values ?? []).includes(tag)
    })
  }
  const objects = options.filter((o) => def(o).type === 'object')
  return objects.length === 1 ? objects[0] : undefined
}

/** Field names the object at `path` accepts, or undefined where the schema cannot be followed. */
export function knownFieldsAt(schema: z.ZodType, document: unknown, path: readonly PropertyKey[]): string[] | undefined {
  let current: z.ZodType | undefined = schema
  let value: unknown = document
  for (const key of path) {
    current = current && branch(current, value)
    if (!current) return undefined
    const d = def(current)
    if (d.type === 'object' && typeof key === 'string') current = d.shape?.[key]
    else if (d.type === 'array' && typeof key === 'number') current = d.element
    else return undefined
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined
  }
  current = current && branch(current, value)
  if (!current || def(current).type !== 'object') return undefined
  return Object.keys(def(current).shape ?? {})
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] as number
}

/** The known name closest to a typo, when it is close enough to be what was meant. */
export function closestName(typo: string, known: readonly string[]): string | undefined {
  // A name cut short or given a unit suffix ("delay" for "delay_ms") is the likeliest slip of all.
  const lower = typo.toLowerCase()
  const prefixed = known.filter((name) => lower.length >= 3 && (name.toLowerCase().startsWith(lower) || lower.startsWith(name.toLowerCase())))
  if (prefixed.length === 1) return prefixed[0]
  let best: { name: string; distance: number } | undefined
  for (const name of known) {
    const distance = editDistance(typo.toLowerCase(), name.toLowerCase())
    if (!best || distance < best.distance) best = { name, distance }
  }
  if (!best) return undefined
  return best.distance <= Math.max(2, Math.floor(typo.length / 3)) ? best.name : undefined
}
