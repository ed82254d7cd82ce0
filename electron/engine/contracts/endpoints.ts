// `contract add`: an endpoint per operation, put through the receiver's own definitions so every
// rule of an endpoint applies (the slug's form, the scheme's settings). An endpoint with the slug
// already there is updated, not duplicated: its name and, where the spec declares one, its scheme
// follow the spec; its secrets, dedupe key, rules and forward targets stay as they are. Nothing
// changes when nothing differs, so a second run makes nothing twice. Each endpoint remembers the
// spec and operation it was made for (and the spec's digest): its requests' schema verdicts are
// held against that operation (spec-schemas.ts).
import { resolve } from 'node:path'
import { endpointDefinition, NEW_ENDPOINT_DEDUPE, type Endpoint } from '../../../shared/receiver'
import type { Receiver } from '../receiver'
import type { ContractSpec } from './model'
import { isHttpUrl } from './spec-source'

export interface PutEndpoint {
  operation: string
  slug: string
  name: string
  scheme: string | null
  /** What the spec's signature came from, when it declares one. */
  schemeFrom: string | null
  action: 'created' | 'updated' | 'unchanged'
}

type Endpoints = Pick<Receiver['endpoints'], 'list' | 'create' | 'update'>

export async function putContractEndpoints(endpoints: Endpoints, spec: ContractSpec, options: { allowRemoteRefs?: boolean } = {}): Promise<PutEndpoint[]> {
  const out: PutEndpoint[] = []
  // Where the receiver reads the spec again, whatever folder it runs in.
  const location = isHttpUrl(spec.location) ? spec.location : resolve(spec.location)
  const done = new Set<string>()
  for (const operation of spec.operations) {
    // Two operations may slug alike (`order.created` and `order created`): the first one has it.
    if (done.has(operation.slug)) continue
    done.add(operation.slug)
    const scheme = operation.signature?.scheme ?? null
    const contract = { spec: location, operation: operation.name, digest: spec.digest, ...(options.allowRemoteRefs ? { allow_remote_refs: true } : {}) }
    const existing = endpoints.list().find((e) => e.slug === operation.slug)
    let saved: Endpoint
    let action: PutEndpoint['action']
    if (!existing) {
      saved = await endpoints.create({ slug: operation.slug, name: operation.name, dedupe: NEW_ENDPOINT_DEDUPE, ...(scheme ? { scheme } : {}), contract })
      action = 'created'
    } else {
      const next = { ...endpointDefinition(existing), name: operation.name, ...(scheme ? { scheme } : {}), contract }
      if (JSON.stringify(next) === JSON.stringify(endpointDefinition(existing))) {
        saved = existing
        action = 'unchanged'
      } else {
        saved = await endpoints.update(existing.id, next)
        action = 'updated'
      }
    }
    out.push({ operation: operation.name, slug: saved.slug, name: saved.name, scheme: saved.scheme, schemeFrom: operation.signature?.from ?? null, action })
  }
  return out
}
