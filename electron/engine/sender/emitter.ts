import type { SenderEventMap, SenderEventType } from '../../../shared/sender'

export type SenderListener<K extends SenderEventType> = (payload: SenderEventMap[K]) => void

/** Typed, synchronous: listeners see events in the order the sender makes them. */
export class SenderEmitter {
  private readonly listeners = new Map<SenderEventType, Set<(payload: never) => void>>()

  on<K extends SenderEventType>(type: K, listener: SenderListener<K>): () => void {
    let set = this.listeners.get(type)
    if (!set) {
      set = new Set()
      this.listeners.set(type, set)
    }
    set.add(listener as (payload: never) => void)
    return () => set.delete(listener as (payload: never) => void)
  }

  emit<K extends SenderEventType>(type: K, payload: SenderEventMap[K]): void {
    const set = this.listeners.get(type)
    if (!set) return
    for (const listener of set) {
      try {
        ;(listener as SenderListener<K>)(payload)
      } catch (error) {
        // A failing listener is its owner's bug; the delivery goes on.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  hasListeners(type: SenderEventType): boolean {
    return (this.listeners.get(type)?.size ?? 0) > 0
  }
}
