import { InteractionResponseType, InteractionType, verifyKey } from 'discord-interactions'
import { freshPrivateKey, publicKeyText } from '../../../../electron/engine/signatures'
import { judgeConsumer, refuse } from '../support'
import type { Judge } from './types'

// discord-interactions' verifyKey as its README uses it (raw body, X-Signature-Ed25519,
// X-Signature-Timestamp, the app's hex public key); 401 when it refuses, as Discord requires, and a
// PONG to a PING. Deliveries are signed with the private key (`secret`).
const secret = freshPrivateKey('ed25519')
const publicKey = publicKeyText(secret, 'ed25519')
if (typeof publicKey !== 'string') throw new Error(publicKey.error)

const TYPE_NAMES: Record<number, string> = { 1: 'ping', 2: 'application_command', 3: 'message_component', 4: 'application_command_autocomplete', 5: 'modal_submit' }

export const discordJudge: Judge = {
  provider: 'discord', library: 'discord-interactions 4', secret,
  start: () => judgeConsumer(async (body, req) => {
    const valid = await verifyKey(body, String(req.headers['x-signature-ed25519'] ?? ''), String(req.headers['x-signature-timestamp'] ?? ''), publicKey)
    if (!valid) refuse(401, 'invalid request signature')
    const interaction = JSON.parse(body.toString('utf8')) as { type: number }
    const answer = interaction.type === InteractionType.PING ? { type: InteractionResponseType.PONG } : { type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE }
    return { accepted: TYPE_NAMES[interaction.type] ?? String(interaction.type), answer: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) } }
  }),
}
