import { claimEach, MAX_CLAIMS_PER_STATEMENT, type DeliveryStore, type EntryClaim, type SqlEngine } from '../store'

// The claims of one event-loop turn in one statement. Every attempt claims its delivery before it
// starts (attempt-runner.ts; docs/ARCHITECTURE.md, "Claims"), and alone each claim is a commit on
// the main thread: on a data folder 70–90 µs of CPU an attempt, the largest stage of a sent
// attempt (docs/BENCHMARKS.md). The attempts the pump starts together (its free slots, the
// answers that came in one turn) ask at once, so the claims asked during a turn are gathered and
// made on the next one (setImmediate, as the attempt writer groups its commits) by `claimEach`:
// the same condition and lease for each row as alone, one commit for all. Each caller still learns
// whether its own delivery is its to send. A delivery asked for twice in one turn (never by one
// runner, which runs a delivery once at a time) waits for the next statement, so its second claim
// sees the first one's outcome, as in order one by one.

type Claimed = (claimed: boolean) => void
interface Waiting extends EntryClaim {
  owner: string
  resolve: Claimed
  reject: (error: unknown) => void
}

/** `store` whose claim() is gathered per event-loop turn into one statement on `engine`. */
export function batchClaims(store: DeliveryStore, engine: SqlEngine): DeliveryStore {
  let waiting: Waiting[] = []
  let immediate: NodeJS.Immediate | undefined

  async function claimTurn(batch: Waiting[]): Promise<void> {
    // One statement per owner (one sender has one) and per MAX_CLAIMS_PER_STATEMENT, ids distinct.
    while (batch.length > 0) {
      const owner = batch[0]!.owner
      const ids = new Set<number>()
      const now: Waiting[] = []
      const later: Waiting[] = []
      for (const w of batch) {
        if (w.owner === owner && !ids.has(w.id) && now.length < MAX_CLAIMS_PER_STATEMENT) {
          ids.add(w.id)
          now.push(w)
        } else later.push(w)
      }
      batch = later
      try {
        const claimed = await claimEach(engine, owner, now)
        for (const w of now) w.resolve(claimed.has(w.id))
      } catch (error) {
        for (const w of now) w.reject(error)
      }
    }
  }

  function flush(): void {
    immediate = undefined
    const batch = waiting
    waiting = []
    void claimTurn(batch)
  }

  return {
    ...store,
    claim: (id, dueAt, owner, leaseUntil) =>
      new Promise<boolean>((resolve, reject) => {
        waiting.push({ id, dueAt, leaseUntil, owner, resolve, reject })
        immediate ??= setImmediate(flush)
      }),
  }
}
