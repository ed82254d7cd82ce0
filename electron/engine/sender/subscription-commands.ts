import type { Sender, SenderParts } from './sender'

// What a user does to a subscription through the sender: the book (subscriptions.ts) keeps and
// checks them; resuming also schedules the deliveries that waited while it was paused.

export function createSubscriptionCommands(parts: SenderParts): Pick<Sender, 'createSubscription' | 'updateSubscription' | 'getSubscription' | 'listSubscriptions' | 'reloadSubscriptions' | 'pause' | 'resume' | 'rotateSecret'> {
  const { clock, deliveries, subscriptions, scheduler, runner } = parts

  function resume(id: string) {
    const now = clock.now()
    const sub = subscriptions.setPaused(id, false, now)
    for (const deliveryId of deliveries.waitingForResume(id)) {
      deliveries.reschedule(deliveryId, 'pending', now, now)
      scheduler.schedule(deliveryId, now)
      runner.emitDelivery(deliveryId, 'delivery.updated')
    }
    return sub
  }

  return {
    createSubscription: (input) => subscriptions.create(input, clock.now()),
    updateSubscription(id, patch) {
      const before = subscriptions.require(id)
      const after = subscriptions.update(id, patch, clock.now())
      if (before.paused && !after.paused) resume(id)
      return after
    },
    getSubscription: (id) => subscriptions.get(id),
    listSubscriptions: () => subscriptions.list(),
    reloadSubscriptions: () => subscriptions.forget(),
    pause: (id) => subscriptions.setPaused(id, true, clock.now()),
    resume,
    rotateSecret: (id) => subscriptions.rotate(id, clock.now()).secret as string,
  }
}
