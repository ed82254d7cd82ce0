import type { Sender, SenderParts } from './sender'

// What a user does to a subscription through the sender: the book (subscriptions.ts) keeps and
// checks them; resuming also schedules the deliveries that waited while it was paused.

export function createSubscriptionCommands(parts: SenderParts): Pick<Sender, 'createSubscription' | 'updateSubscription' | 'getSubscription' | 'listSubscriptions' | 'reloadSubscriptions' | 'pause' | 'resume' | 'rotateSecret'> {
  const { clock, deliveries, subscriptions, scheduler, runner } = parts

  async function resume(id: string) {
    const now = clock.now()
    const sub = await subscriptions.setPaused(id, false, now)
    for (const deliveryId of await deliveries.waitingForResume(id)) {
      await deliveries.reschedule(deliveryId, 'pending', now, now)
      scheduler.schedule(deliveryId, now)
      await runner.emitDelivery(deliveryId, 'delivery.updated')
    }
    return sub
  }

  return {
    createSubscription: (input, workspaceId) => subscriptions.create(input, clock.now(), workspaceId),
    async updateSubscription(id, patch) {
      const wasPaused = subscriptions.get(id)?.paused ?? false
      const after = await subscriptions.update(id, patch, clock.now())
      if (wasPaused && !after.paused) await resume(id)
      return after
    },
    getSubscription: (id) => subscriptions.get(id),
    listSubscriptions: () => subscriptions.list(),
    reloadSubscriptions: () => subscriptions.reload(),
    pause: (id) => subscriptions.setPaused(id, true, clock.now()),
    resume,
    rotateSecret: async (id) => (await subscriptions.rotate(id, clock.now())).secret as string,
  }
}
