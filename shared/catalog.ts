// A catalog of presets: one entry per preset, keyed by its id, with what a person reads (label,
// description) and what a person may set (parameters). The contract's enums, the engine's
// lookups and the UI's lists all come from the catalog, so a new preset is a new entry.

/** A number a person sets when picking a preset ("fail the first N"). */
export interface PresetParameter {
  name: string
  label: string
  default: number
  min: number
  max: number
}

/** What a person reads of a preset, and what they may set. */
export interface PresetInfo {
  label: string
  description: string
  parameters?: readonly PresetParameter[]
}

/** A preset as the snapshot carries it to the UI: plain JSON. */
export interface PresetView<Id extends string = string> {
  id: Id
  label: string
  description: string
  parameters: readonly PresetParameter[]
}

export interface Catalog<Id extends string, E extends PresetInfo> {
  /** The ids in catalog order, non-empty: ready for z.enum. */
  readonly ids: readonly [Id, ...Id[]]
  readonly entries: Readonly<Record<Id, E>>
  has(id: string): id is Id
  /** The entries as the UI sees them, in catalog order, each with what `extra` adds. */
  views(): PresetView<Id>[]
  views<X extends object>(extra: (entry: E, id: Id) => X): (PresetView<Id> & X)[]
}

export function defineCatalog<Id extends string, E extends PresetInfo>(entries: Record<Id, E>): Catalog<Id, E> {
  const ids = Object.keys(entries) as Id[]
  if (ids.length === 0) throw new Error('a catalog needs at least one entry')
  return {
    ids: ids as [Id, ...Id[]],
    entries,
    has: (id: string): id is Id => Object.prototype.hasOwnProperty.call(entries, id),
    views: (extra?: (entry: E, id: Id) => object) =>
      ids.map((id) => {
        const { label, description, parameters = [] } = entries[id]
        return { id, label, description, parameters, ...extra?.(entries[id], id) }
      }),
  }
}

/** The same record with each value mapped (the catalog's domain objects by id). */
export function mapEntries<Id extends string, E, R>(entries: Readonly<Record<Id, E>>, fn: (entry: E, id: Id) => R): Record<Id, R> {
  return Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, fn(entry as E, id as Id)])) as Record<Id, R>
}
