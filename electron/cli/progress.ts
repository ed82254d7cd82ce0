// Progress of long work (a big export, import or prune) on stderr: one line rewritten in place
// while stderr is a terminal, nothing at all when it is not (a pipe or a file keeps only results).
export interface Progress {
  /** `done` of `total` so far, with a few words on what is counted. */
  update(done: number, total: number, what: string): void
  /** Clears the line; call once the work ended (finished or failed). */
  end(): void
}

const SILENT: Progress = { update: () => {}, end: () => {} }

/** At most one redraw per this many ms: a fast loop must not spend its time on the terminal. */
const REDRAW_MS = 100

export function stderrProgress(command: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return SILENT
  let drawn = false
  let lastAt = 0
  return {
    update(done, total, what) {
      const now = Date.now()
      if (done < total && now - lastAt < REDRAW_MS) return
      lastAt = now
      drawn = true
      stream.write(`\r\x1b[2K${command}: ${done}/${total} ${what}`)
    },
    end() {
      if (drawn) stream.write('\r\x1b[2K')
      drawn = false
    },
  }
}
