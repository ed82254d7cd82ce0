import { definePack } from './types'

// Discord interactions over HTTP: the body is the Interaction object itself. The "secret" is the
// Ed25519 private key that signs (whsk_…); the app is configured with its public key, as the
// Developer Portal shows it (64 hex characters; docs/signatures.md).
export const discord = definePack({
  id: 'discord',
  label: 'Discord interactions',
  headers: { 'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)' },
  success: 'a 2xx with an interaction response (a PONG to a PING) within 3 s; an interaction is never retried',
  sources: [
    ['Discord Developer Docs — Receiving and responding to interactions', 'https://discord.com/developers/docs/interactions/receiving-and-responding', 'Interactions POST the Interaction object (id, application_id, type, data, guild_id, channel_id, member or user, token, version 1, …) as JSON; the app has 3 s to answer with an interaction response. Every request carries X-Signature-Ed25519 (hex Ed25519 signature of X-Signature-Timestamp followed by the raw body) and X-Signature-Timestamp; verify with the app\u2019s public key; a request that fails verification must get a 401.'],
    ['Discord Developer Docs — Interactions overview: configuring an interactions endpoint URL', 'https://discord.com/developers/docs/interactions/overview#configuring-an-interactions-endpoint-url', 'When the URL is saved Discord sends a PING (type 1) that must be acknowledged with {"type": 1} (PONG), and sends requests with invalid signatures that must be refused.'],
  ],
})
