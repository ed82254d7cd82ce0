// A scenario's panel actions — "Retry now" (also after failed), "Pause", resume, "Rotate secret"
// — done on the engine's sender at their moment of the run. Each ends in a line of the report;
// one that cannot be done (a retry while an attempt is in flight …) fails the run, visibly.
import type { ScenarioAction, ReportAction } from '../../../shared/scenario'
import type { Engine } from '../engine'

export interface ActionContext {
  engine: Engine
  /** The sender's id of a scenario subscription. */
  subscriptionId(local: string): string | undefined
  /** The original delivery (not a duplicate copy) of an event to a subscription, once it exists. */
  deliveryId(event: string, subscription: string): number | undefined
  /** The scenario subscription an event goes to when the action names none. */
  defaultSubscription(event: string): string
  /** Records a delivery a `resend` made (numbered per event and subscription). */
  resent(event: string, subscription: string, deliveryId: number): number
}

export async function performAction(action: ScenarioAction, index: number, context: ActionContext): Promise<ReportAction> {
  const base = { path: `actions[${index}]`, type: action.type, at_ms: action.at_ms }
  const { sender } = context.engine
  try {
    switch (action.type) {
      case 'retry-now': {
        const subscription = action.subscription ?? context.defaultSubscription(action.event)
        const id = context.deliveryId(action.event, subscription)
        if (id === undefined) return { ...base, ok: false, message: `no delivery of ${action.event} to ${subscription} exists yet` }
        const after = await sender.retryNow(id)
        return { ...base, ok: true, message: `delivery ${id} of ${action.event} → ${subscription}: one more attempt now (attempts so far: ${after.attempts})` }
      }
      case 'resend': {
        const subscription = action.subscription ?? context.defaultSubscription(action.event)
        const original = context.deliveryId(action.event, subscription)
        const subscriptionId = context.subscriptionId(subscription)
        if (original === undefined || subscriptionId === undefined) return { ...base, ok: false, message: `${action.event} was not sent to ${subscription} yet, so it cannot be resent` }
        const { delivery } = await sender.getDelivery(original)
        const copy = await sender.resend(delivery.eventId, subscriptionId)
        const n = context.resent(action.event, subscription, copy.id)
        return { ...base, ok: true, message: `${action.event} → ${subscription}: resent as delivery ${copy.id} (resend #${n}, same event id ${delivery.eventId})` }
      }
      case 'pause':
      case 'resume':
      case 'rotate-secret': {
        const id = context.subscriptionId(action.subscription)
        if (id === undefined) return { ...base, ok: false, message: `no subscription ${action.subscription}` }
        if (action.type === 'pause') {
          await sender.pause(id)
          return { ...base, ok: true, message: `${action.subscription} paused: new deliveries wait, active ones go on` }
        }
        if (action.type === 'resume') {
          await sender.resume(id)
          return { ...base, ok: true, message: `${action.subscription} resumed: waiting deliveries go now` }
        }
        await sender.rotateSecret(id)
        return { ...base, ok: true, message: `${action.subscription}: secret rotated, the old one is invalid at once` }
      }
      default: {
        const never: never = action
        throw new Error(`unknown action ${JSON.stringify(never)}`)
      }
    }
  } catch (error) {
    return { ...base, ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
