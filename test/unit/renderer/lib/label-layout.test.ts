import { describe, expect, it } from 'vitest'
import type { TimelineMark } from '../../../../shared/contract'
import { crowdedRuns, layoutLabels, spreadLabels } from '../../../../renderer/src/lib/label-layout'
import { appLinesShown, markGroups, markShapes, markSpan, pieceSpans, waitLabelFits } from '../../../../renderer/src/views/TimelineRowView'

function overlaps(a: { x: number; width: number }, b: { x: number; width: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width
}

/** No two of these spans along one line touch. */
function expectApart(spans: { start: number; end: number }[]): void {
  for (let i = 0; i < spans.length; i++)
    for (let j = i + 1; j < spans.length; j++) expect(overlaps({ x: spans[i]!.start, width: spans[i]!.end - spans[i]!.start }, { x: spans[j]!.start, width: spans[j]!.end - spans[j]!.start })).toBe(false)
}

describe('label layout', () => {
  it('puts each label on the first lane where it is clear, or skips it', () => {
    const boxes = [
      { x: 0, width: 30 },
      { x: 10, width: 30 },
      { x: 20, width: 30 },
      { x: 100, width: 30 },
    ]
    expect(layoutLabels(boxes, 2)).toEqual([0, 1, -1, 0])
    const lanes = layoutLabels(boxes, 2)
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) if (lanes[i] !== -1 && lanes[i] === lanes[j]) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false)
  })

  it('crowded marks: a pill where its label has room, else a dot, else a dot moved right of the ones before; every mark drawn, none covering another', () => {
    const xs = [0, 33, 37, 200]
    const labels = ['503', '503', '503', '200']
    const places = markShapes(xs, labels, 1)
    expect(places.map((p) => p.shape)).toEqual(['pill', 'dot', 'dot', 'pill'])
    // The third mark stands right of the second, not at its own time.
    expect(places[2]!.x).toBeGreaterThan(37)
    expectApart(places.map((p, i) => markSpan(p, labels[i]!)))
  })

  it('three days of retries with the first attempts seconds apart: every attempt is a mark on screen', () => {
    // Stripe's schedule at a 3-day zoom: #1–#3 within a minute land on the same pixel.
    const xs = [10, 10.01, 10.3, 60, 140, 220, 300, 380, 460, 540]
    const labels = ['503', '503', '500', '500', '503', '503', '500', '503', '503', '503']
    for (const lanes of [1, 2]) {
      const places = markShapes(xs, labels, lanes, 800)
      expect(places.filter((p) => p.shape !== 'hidden')).toHaveLength(xs.length)
      for (let lane = 0; lane < lanes; lane++) expectApart(places.flatMap((p, i) => (p.lane === lane ? [markSpan(p, labels[i]!)] : [])))
    }
  })

  it('fast retries at the right edge of a row are countable: one mark with its count, not two pills and two dots', () => {
    // Four requests within a second at the end of a live window 720 px wide (the newest activity sits there).
    const mark = (n: number, label: string): TimelineMark => ({ kind: 'request', id: n, n, at: n, durationMs: 3, tone: label === '200' ? 'ok' : 'retrying', label, nextAt: null })
    for (const [labels, drawn] of [
      [['503', '503', '503', '503'], ['503 ×4']],
      [['503', '503', '503', '200'], ['503 ×3', '200']],
    ] as const) {
      const xs = [700, 702.5, 705, 709]
      const groups = markGroups(labels.map((l, i) => mark(i + 1, l)), xs)
      expect(groups.map((g) => g.label)).toEqual(drawn)
      const places = markShapes(groups.map((g) => g.x), groups.map((g) => g.label), 2, 720, groups.map((g) => g.short))
      // Every request is counted on screen: each drawn mark stands for its group's count, none hidden.
      expect(places.every((p) => p.shape !== 'hidden')).toBe(true)
      expect(groups.reduce((n, g) => n + g.marks.length, 0)).toBe(4)
      for (let lane = 0; lane < 2; lane++) expectApart(places.flatMap((p, i) => (p.lane === lane ? [markSpan(p, groups[i]!.label, groups[i]!.short)] : [])))
    }
  })

  it('a run is marks with one label within one pill of its first; a counted mark with no room keeps its count ("×3")', () => {
    expect(crowdedRuns([0, 10, 20, 40, 45], ['503', '503', '503', '503', '200'])).toEqual([[0, 2], [3, 3], [4, 4]])
    // Far apart, or another label in between: no run.
    expect(crowdedRuns([0, 80, 160], ['503', '503', '503'])).toEqual([[0, 0], [1, 1], [2, 2]])
    // With no room at its time, a counted mark is not a bare dot: it moves right as "×3", keeping its count.
    const places = markShapes([0, 2, 3], ['500', '503 ×3', '200'], 1, 400, [null, '×3', null])
    expect(places.map((p) => p.shape)).toEqual(['pill', 'short', 'dot'])
    expect(places[1]!.x).toBeGreaterThan(2)
    expectApart(places.map((p, i) => markSpan(p, ['500', '503 ×3', '200'][i]!, [null, '×3', null][i])))
  })

  it('only marks that would land past the track are left out (hundreds at one moment)', () => {
    const xs = Array.from({ length: 200 }, () => 50)
    const places = markShapes(xs, xs.map(() => '200'), 1, 300)
    expect(places.some((p) => p.shape === 'hidden')).toBe(true)
    expect(places.every((p) => p.shape === 'hidden' || p.x <= 300)).toBe(true)
  })

  it('a wait label never covers an app line: "12 h" between two forwarded marks whose app lines are wider than the gap', () => {
    // Forward mode: one lane of marks, an app line under each; the wait label sits between the lines.
    const xs = [100, 180, 400]
    const labels = ['500', '503', '503']
    const texts = ['app: 500 in 2 ms', 'not forwarded', 'not forwarded']
    const places = markShapes(xs, labels, 1)
    const shown = appLinesShown(places.map((p) => p.x), texts)
    const spans = pieceSpans(places, labels, texts, shown)
    const words = '12 h'
    // Between #1 and #2 the label would sit on #1's app line ("app: 500 in 2 ms" reaches ~180 px).
    expect(waitLabelFits(spans, 0, (xs[0]! + xs[1]!) / 2, words.length * 6)).toBe(false)
    // Between #2 and #3 there is room clear of both marks and of #2's app line.
    expect(waitLabelFits(spans, 1, (xs[1]! + xs[2]!) / 2, words.length * 6)).toBe(true)
    // Whatever the label decides, each one drawn is clear of every piece.
    for (const i of [0, 1]) {
      const mid = (xs[i]! + xs[i + 1]!) / 2
      if (!waitLabelFits(spans, i, mid, words.length * 6)) continue
      const label = { x: mid - 12, width: 24 }
      for (const span of spans) if (span) expect(overlaps(label, { x: span.start, width: span.end - span.start })).toBe(false)
    }
  })

  it('with a second lane, a mark crowding the one before keeps its label on the line under it', () => {
    expect(markShapes([0, 4, 200], ['200', '200', '503'])).toEqual([
      { shape: 'pill', lane: 0, x: 0 },
      { shape: 'pill', lane: 1, x: 4 },
      { shape: 'pill', lane: 0, x: 200 },
    ])
  })

  it('marks far apart all keep their labels on the main line', () => {
    expect(markShapes([0, 80, 160, 240], ['503', '503', '503', '200']).map((p) => `${p.shape}${p.lane}`)).toEqual(['pill0', 'pill0', 'pill0', 'pill0'])
  })

  it('app lines that would cover each other are left out (the mark keeps the line in its tooltip)', () => {
    expect(appLinesShown([0, 20, 300], ['app: 500 in 3 ms', 'app: 200 in 4 ms', 'app: 200 in 2 ms'])).toEqual([true, false, true])
  })

  it('spreads crowded labels apart and keeps every one inside the chart', () => {
    const points = [36, 38, 42, 50, 67, 101]
    const widths = points.map(() => 40)
    const centres = spreadLabels(points, widths, 6, 4, 300)
    expect(centres).toHaveLength(points.length)
    for (let i = 1; i < centres.length; i++) expect(centres[i]! - centres[i - 1]!).toBeGreaterThanOrEqual(46)
    expect(centres[0]! - 20).toBeGreaterThanOrEqual(4)
    const right = spreadLabels([280, 290, 295], [40, 40, 40], 6, 4, 300)
    expect(right[2]! + 20).toBeLessThanOrEqual(300)
    expect(right[1]! - right[0]!).toBeGreaterThanOrEqual(46)
  })
})
