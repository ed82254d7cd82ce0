import { splitEventType, type ProviderPack } from '../../../shared/providers'
import { derivedUuid } from './derived-ids'

// A pack's headers for one attempt: its templates filled in (see ProviderHeader in
// shared/providers/types.ts for the placeholders), retry-only headers only on retries.

export interface HeaderContext {
  eventId: string
  eventType: string
  /** 1 for the first attempt. */
  attempt: number
  createdAt: number
  sentAt: number
  /** The subscription's API version; default: the pack's first. */
  apiVersion?: string | null
}

export function providerHeaders(pack: ProviderPack, ctx: HeaderContext): Record<string, string> {
  const [name, action] = splitEventType(ctx.eventType)
  const values: Record<string, string> = {
    event_id: ctx.eventId,
    event_type: ctx.eventType,
    event_name: name,
    event_action: action,
    event_title: name.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' '),
    attempt: String(ctx.attempt),
    retry_num: String(ctx.attempt - 1),
    sent_at_iso: new Date(ctx.sentAt).toISOString(),
    created_at_iso: new Date(ctx.createdAt).toISOString(),
    derived_uuid: derivedUuid(ctx.eventId, pack.id),
  }
  const apiVersion = ctx.apiVersion ?? pack.apiVersions?.[0]
  if (apiVersion) values.api_version = apiVersion
  const out: Record<string, string> = { 'content-type': pack.contentType }
  const fill = (template: string): string => template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => values[key] ?? whole)
  for (const header of pack.headers) {
    if (header.on === 'retries' && ctx.attempt <= 1) continue
    out[header.name.toLowerCase()] = fill(header.value)
  }
  const own = pack.eventHeaders?.[ctx.eventType]
  if (own) for (const name in own) out[name.toLowerCase()] = fill(own[name] as string)
  return out
}
