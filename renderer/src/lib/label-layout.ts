// Lays out labels along one line so none overlaps another: each goes on the first lane where it
// stands clear of the last label placed there, or is skipped (-1) when every lane is taken.

export interface LabelBox {
  /** Left edge, in px. */
  x: number
  width: number
}

/** Lane per label (0 = the main line), or -1 for a label that would overlap on every lane. Input in x order. */
export function layoutLabels(boxes: readonly LabelBox[], lanes = 1, gap = 2): number[] {
  const ends: number[] = Array.from({ length: Math.max(1, lanes) }, () => Number.NEGATIVE_INFINITY)
  return boxes.map((box) => {
    const lane = ends.findIndex((end) => box.x >= end + gap)
    if (lane === -1) return -1
    ends[lane] = box.x + box.width
    return lane
  })
}

/** Width a short label takes at the timeline's mark font: a pill's padding plus its characters. */
export function pillWidth(text: string, charWidth = 6.2, padding = 14, min = 18): number {
  return Math.max(min, Math.ceil(text.length * charWidth + padding))
}

/**
 * Label centres along one line, each as near its own point as it can be without touching the
 * previous label: pushed right where points crowd, then pulled back from the end when the last
 * ones would run past `max`. Every label stays (a leader line joins a moved label to its point).
 */
export function spreadLabels(points: readonly number[], widths: readonly number[], gap: number, min: number, max: number): number[] {
  const centres: number[] = []
  points.forEach((p, i) => {
    const w = widths[i] ?? 0
    const prev = centres[i - 1]
    const earliest = prev === undefined ? min + w / 2 : prev + ((widths[i - 1] ?? 0) + w) / 2 + gap
    centres.push(Math.max(p, earliest))
  })
  for (let i = centres.length - 1; i >= 0; i--) {
    const w = widths[i] ?? 0
    const next = centres[i + 1]
    const latest = next === undefined ? max - w / 2 : next - ((widths[i + 1] ?? 0) + w) / 2 - gap
    centres[i] = Math.min(centres[i] as number, latest)
  }
  return centres
}

/**
 * Runs of marks one pill would cover: consecutive marks with the same label, each within the pill
 * of the run's first mark (they happened within a pill's width of time at this zoom), as
 * [first, last] index pairs in order; a lone mark is a run of one. A run is drawn as one mark with
 * its count ("503 ×3"), so fast retries can be counted without zooming. Input in x order.
 */
export function crowdedRuns(xs: readonly number[], labels: readonly string[], gap = 2): [number, number][] {
  const runs: [number, number][] = []
  xs.forEach((x, i) => {
    const run = runs[runs.length - 1]
    if (run && labels[i] === labels[run[0]] && x < (xs[run[0]] as number) + pillWidth(labels[run[0]] ?? '') + gap) run[1] = i
    else runs.push([i, i])
  })
  return runs
}
