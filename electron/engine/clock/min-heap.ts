// A binary min-heap ordered by (priority, tie): O(log n) push and pop. Parallel arrays instead of
// one object per entry keep a million entries cheap for the scheduler and the virtual clock.
export class MinHeap<T> {
  private readonly priorities: number[] = []
  private readonly ties: number[] = []
  private readonly items: T[] = []

  get size(): number {
    return this.items.length
  }

  /** Priority and tie of the smallest entry, or undefined when empty. */
  peekPriority(): number | undefined {
    return this.priorities[0]
  }

  peekTie(): number | undefined {
    return this.ties[0]
  }

  peek(): T | undefined {
    return this.items[0]
  }

  push(priority: number, tie: number, item: T): void {
    this.priorities.push(priority)
    this.ties.push(tie)
    this.items.push(item)
    this.up(this.items.length - 1)
  }

  pop(): T | undefined {
    const size = this.items.length
    if (size === 0) return undefined
    const top = this.items[0] as T
    const lastP = this.priorities.pop() as number
    const lastT = this.ties.pop() as number
    const lastI = this.items.pop() as T
    if (size > 1) {
      this.priorities[0] = lastP
      this.ties[0] = lastT
      this.items[0] = lastI
      this.down(0)
    }
    return top
  }

  clear(): void {
    this.priorities.length = 0
    this.ties.length = 0
    this.items.length = 0
  }

  private less(a: number, b: number): boolean {
    const pa = this.priorities[a] as number
    const pb = this.priorities[b] as number
    return pa < pb || (pa === pb && (this.ties[a] as number) < (this.ties[b] as number))
  }

  private swap(a: number, b: number): void {
    const p = this.priorities[a] as number
    this.priorities[a] = this.priorities[b] as number
    this.priorities[b] = p
    const t = this.ties[a] as number
    this.ties[a] = this.ties[b] as number
    this.ties[b] = t
    const i = this.items[a] as T
    this.items[a] = this.items[b] as T
    this.items[b] = i
  }

  private up(index: number): void {
    let i = index
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.less(i, parent)) break
      this.swap(i, parent)
      i = parent
    }
  }

  private down(index: number): void {
    const size = this.items.length
    let i = index
    for (;;) {
      const left = 2 * i + 1
      if (left >= size) break
      const right = left + 1
      const child = right < size && this.less(right, left) ? right : left
      if (!this.less(child, i)) break
      this.swap(i, child)
      i = child
    }
  }
}
