// Which queued writes the group-commit writer sends next when it commits large writes apart from
// small ones (the receiver: a 10 MB body must not hold an ordinary webhook's answer). Small writes
// go first, all together, as long as nothing queued before them that they depend on is left
// behind; large writes then go a few MB at a time. A write's keys say what it depends on: two
// writes sharing a key (a request's row and its outcome, a duplicate and the request it points
// at) commit in the order they were queued. A write without keys keeps its place behind every
// write queued before it.

/** What the lanes need to know of a queued write. */
export interface LaneItem {
  /** Bytes of its byte values (bodies). */
  bytes: number
  keys: readonly (string | number)[] | undefined
}

export interface Lanes {
  /** A write holding at least this many bytes is large. */
  largeBytes: number
  /** Large writes sent together up to this many bytes (always at least one). */
  batchBytes: number
}

/**
 * Splits `queued` (in the order written) into what to send now and what stays queued (in order).
 * Sends the small writes nothing earlier holds back; when there are none, the large writes at the
 * head up to `batchBytes`.
 */
export function pickLanes<T extends LaneItem>(queued: readonly T[], lanes: Lanes): { send: T[]; rest: T[] } {
  const small: T[] = []
  const held: T[] = []
  const blocked = new Set<string | number>()
  // Set once a write without keys is held: everything after it stays in order behind it.
  let barrier = false
  const hold = (item: T) => {
    held.push(item)
    if (item.keys === undefined) barrier = true
    else for (const key of item.keys) blocked.add(key)
  }
  for (const item of queued) {
    if (item.bytes >= lanes.largeBytes) hold(item)
    else if (held.length > 0 && (barrier || item.keys === undefined || item.keys.some((key) => blocked.has(key)))) hold(item)
    else small.push(item)
  }
  if (small.length > 0) return { send: small, rest: held }
  // Only large writes (and what waits on them) are queued: the head goes, a few MB at a time. The
  // head is large (a small write is only held behind a large one).
  let bytes = 0
  let count = 0
  while (count < held.length) {
    const item = held[count] as T
    if (item.bytes < lanes.largeBytes || (count > 0 && bytes + item.bytes > lanes.batchBytes)) break
    bytes += item.bytes
    count++
  }
  return { send: held.slice(0, count), rest: held.slice(count) }
}
