// The event catalog's public face: the catalog, fixture contexts, overrides, the UI's prefill.
export * from './types'
export { fixtureContext } from './context'
export { applyOverrides, OverrideError, parseOverride, type Override } from './overrides'

export { EVENT_CATALOG, catalogEvent } from './catalog'
export { prefill, type Prefill } from './prefill'
