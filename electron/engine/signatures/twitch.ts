import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// Twitch EventSub (webhook transport): `sha256=` + hex HMAC-SHA256 of message id, timestamp (RFC
// 3339, as the header carries it) and body, concatenated; older than 10 minutes is refused.
export const twitch = hmacScheme(SCHEMES.twitch, {
  signatureHeader: 'twitch-eventsub-message-signature',
  prefix: 'sha256=',
  encoding: 'hex',
  template: '{id}{timestamp}{body}',
  timestampHeader: 'twitch-eventsub-message-timestamp',
  timestampFormat: 'iso',
  idHeader: 'twitch-eventsub-message-id',
})
