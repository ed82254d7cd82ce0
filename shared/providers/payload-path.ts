import type { ProviderEnvelope } from './types'

/**
 * Where an event's payload sits in the body its provider sends, as a dotted path ('' = the body
 * itself). Overrides (`--set data.object.amount=500`) name paths of the body; the part after this
 * prefix is the path inside the payload.
 */
export function payloadPath(envelope: ProviderEnvelope): string {
  switch (envelope.kind) {
    case 'payload':
    case 'form':
      return ''
    case 'hookloop':
    case 'zoom':
      return 'payload'
    case 'event-message':
      return 'message'
    case 'pagerduty':
      return 'event'
    case 'typeform':
      return 'form_response'
    case 'slack':
      return 'event'
    case 'stripe':
    case 'type-timestamp-data':
    case 'square':
    case 'paddle':
    case 'linear':
    case 'clerk':
    case 'type-created-at-data':
      return 'data'
    case 'array':
      return '0'
    case 'intercom':
      return 'data.item'
    case 'mailgun':
      return 'event-data'
    default: {
      const never: never = envelope
      throw new Error(`unknown envelope ${JSON.stringify(never)}`)
    }
  }
}
