import type { ProviderPack } from '../../../shared/providers'
import { derivedToken, derivedUuid } from './derived-ids'

// The body a provider sends for one attempt, built from the stored event (its payload bytes are
// the part the catalog and the user wrote) and the attempt's times. Fields the provider keeps
// across retries (Stripe's evt_ id, created) come from the event; fields it sets per send
// (Linear's webhookTimestamp) from the attempt's signing time.

export interface EnvelopeInput {
  eventId: string
  eventType: string
  /** The payload's JSON bytes as stored. */
  payload: Buffer
  /** When the event was published, ms. */
  createdAt: number
  /** The time this attempt is signed with, ms. */
  sentAt: number
  /** The subscription's API version (Stripe's api_version); default: the pack's own. */
  apiVersion?: string | null
}

const iso = (ms: number): string => new Date(ms).toISOString()
const unixS = (ms: number): number => Math.floor(ms / 1000)

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value))
}

function parsed(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8')) as unknown
  } catch {
    return payload.toString('utf8')
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value }
}

/** `Issue.create` → ['Issue', 'create']; a type without a dot has an empty action. */
export function splitEventType(eventType: string): [string, string] {
  const dot = eventType.indexOf('.')
  return dot < 0 ? [eventType, ''] : [eventType.slice(0, dot), eventType.slice(dot + 1)]
}

function formBody(payload: unknown): Buffer {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(asObject(payload))) {
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v))
    else if (value !== undefined && value !== null) params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean))
  }
  return Buffer.from(params.toString())
}

export function providerBody(pack: ProviderPack, input: EnvelopeInput): Buffer {
  const { envelope } = pack
  const data = (): unknown => parsed(input.payload)
  switch (envelope.kind) {
    case 'payload':
      return input.payload
    case 'hookloop':
      return Buffer.concat([Buffer.from(`{"event_id":${JSON.stringify(input.eventId)},"event_type":${JSON.stringify(input.eventType)},"payload":`), input.payload, Buffer.from('}')])
    case 'event-message':
      return Buffer.concat([Buffer.from(`{"event":${JSON.stringify(input.eventType)},"message":`), input.payload, Buffer.from('}')])
    case 'form':
      return formBody(data())
    case 'stripe':
      return json({
        id: `evt_${derivedToken(input.eventId, 'stripe', 24, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}`,
        object: 'event',
        api_version: input.apiVersion ?? envelope.apiVersion,
        created: unixS(input.createdAt),
        data: data(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: input.eventType,
      })
    case 'slack': {
      const event = asObject(data())
      return json({
        token: 'hookloopVerificationToken',
        team_id: envelope.teamId,
        api_app_id: envelope.apiAppId,
        event: { type: input.eventType, ...event },
        type: 'event_callback',
        event_id: `Ev${derivedToken(input.eventId, 'slack', 9, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
        event_time: unixS(input.createdAt),
        authorizations: [{ enterprise_id: null, team_id: envelope.teamId, user_id: 'U0HOOKBOT', is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
        event_context: `4-${derivedToken(input.eventId, 'slack-context', 40)}`,
      })
    }
    case 'type-timestamp-data':
      return json({ type: input.eventType, timestamp: iso(input.createdAt), data: data() })
    case 'square':
      return json({ merchant_id: envelope.merchantId, type: input.eventType, event_id: input.eventId, created_at: iso(input.createdAt), data: data() })
    case 'paddle':
      return json({
        event_id: `evt_${derivedToken(input.eventId, 'paddle-event', 26)}`,
        event_type: input.eventType,
        occurred_at: iso(input.createdAt),
        notification_id: `ntf_${derivedToken(input.eventId, 'paddle-notification', 26)}`,
        data: data(),
      })
    case 'linear': {
      const [type, action] = splitEventType(input.eventType)
      const body = asObject(data())
      return json({
        action,
        type,
        data: body,
        url: typeof body.url === 'string' ? body.url : `https://linear.app/hookloop/${type.toLowerCase()}/${String(body.id ?? '')}`,
        createdAt: iso(input.createdAt),
        organizationId: envelope.organizationId,
        webhookTimestamp: input.sentAt,
        webhookId: derivedUuid(pack.id, 'linear-webhook'),
      })
    }
    case 'zoom': {
      // A recording event's download_token sits beside payload, not in it (Zoom's
      // RecordingCompletedEvent); the catalog writes it in the payload, the body moves it out.
      const { download_token: downloadToken, ...payload } = asObject(data())
      return json({ event: input.eventType, event_ts: input.createdAt, ...(downloadToken === undefined ? {} : { download_token: downloadToken }), payload: { account_id: envelope.accountId, ...payload } })
    }
    case 'mailgun':
      return Buffer.concat([Buffer.from('{"event-data":'), input.payload, Buffer.from('}')])
    case 'array':
      return Buffer.concat([Buffer.from('['), input.payload, Buffer.from(']')])
    case 'intercom':
      // Intercom's notification around the topic's item; its id and times come from the event, so
      // a retry carries the same notification.
      return json({
        type: 'notification_event',
        app_id: envelope.appId,
        data: { type: 'notification_event_data', item: data() },
        links: {},
        id: `notif_${derivedUuid(input.eventId, 'intercom-notification')}`,
        topic: input.eventType,
        delivery_status: 'pending',
        delivery_attempts: 1,
        delivered_at: 0,
        first_sent_at: unixS(input.createdAt),
        created_at: unixS(input.createdAt),
        self: null,
      })
    case 'clerk':
      return json({
        data: data(),
        event_attributes: { http_request: { client_ip: '203.0.113.24', user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36' } },
        instance_id: envelope.instanceId,
        object: 'event',
        timestamp: input.createdAt,
        type: input.eventType,
      })
    case 'type-created-at-data':
      return json({ type: input.eventType, created_at: iso(input.createdAt), data: data() })
    case 'pagerduty':
      return json({
        event: {
          id: derivedToken(input.eventId, 'pagerduty', 26, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
          event_type: input.eventType,
          resource_type: splitEventType(input.eventType)[0],
          occurred_at: iso(input.createdAt),
          ...asObject(data()),
        },
      })
    case 'typeform':
      return json({ event_id: derivedToken(input.eventId, 'typeform', 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'), event_type: input.eventType, form_response: data() })
    default: {
      const never: never = envelope
      throw new Error(`unknown provider envelope ${JSON.stringify(never)}`)
    }
  }
}
