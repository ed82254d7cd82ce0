// The two conformance checks: a battery of deliveries to someone's endpoint, and what a provider
// delivered to one of ours against its documented policy.
import { POLICY_PRESETS } from '../../../shared/sender'
import { ConsumerCheckInputError, runConsumerCheck, checkSenderConformance } from '../conformance'
import { SecretFormatError } from '../signatures'
import type { CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError, needsDataFolder } from './host-error'

export function createCheckHandlers(ctx: HandlerContext) {
  return {
    'check.consumer': (req) =>
      runConsumerCheck({
        url: req.url,
        ...(req.scheme === undefined ? {} : { scheme: req.scheme }),
        ...(req.handshake === undefined ? {} : { handshake: req.handshake }),
        secret: req.secret,
        ...(req.timeoutMs === undefined ? {} : { timeoutMs: req.timeoutMs }),
        ...(req.latencySamples === undefined ? {} : { latencySamples: req.latencySamples }),
      }).catch((error: unknown) => {
        // Nothing was sent: the form's mistake (no scheme nor handshake, a missing secret), said as such.
        if (error instanceof ConsumerCheckInputError || error instanceof SecretFormatError) throw new HostError('bad_request', error.message)
        throw error
      }),
    'check.sender': (req) => {
      const { engine } = ctx.current()
      needsDataFolder(engine.store.engine, 'the sender check')
      const endpoint = engine.receiver.endpoints.get(req.endpointId)
      if (!endpoint) throw new HostError('not_found', `endpoint ${req.endpointId} does not exist`)
      return checkSenderConformance(engine.db, {
        endpoint: endpoint.slug,
        policy: POLICY_PRESETS[req.policyId],
        tolerance: {
          ...(req.toleranceMs === undefined ? {} : { ms: req.toleranceMs }),
          ...(req.tolerancePct === undefined ? {} : { pct: req.tolerancePct }),
        },
        asOf: engine.clock.now(),
      })
    },
  } satisfies Partial<CommandHandlers>
}
