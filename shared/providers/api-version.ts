import type { ProviderPack } from './types'

// A subscription's provider API version: one the pack lists, the pack's first when none is named,
// none for a provider without versions. A wrong one is refused with the versions the pack knows,
// never quietly replaced by the default.

export class ApiVersionError extends Error {
  override readonly name = 'ApiVersionError'
}

export function apiVersionFor(pack: ProviderPack, requested?: string | null): string | null {
  const versions = pack.apiVersions ?? []
  if (requested === undefined || requested === null) return versions[0] ?? null
  if (versions.length === 0) throw new ApiVersionError(`api_version: ${pack.label} has no API versions; leave it out`)
  if (!versions.includes(requested)) throw new ApiVersionError(`api_version: ${pack.label} has no API version ${JSON.stringify(requested)} (known: ${versions.join(', ')})`)
  return requested
}
