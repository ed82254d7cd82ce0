import { describe, expect, it } from 'vitest'
import { layoutLabels, pillWidth, spreadLabels } from '../../../renderer/src/lib/label-layout'
import { appLinesShown, markShapes } from '../../../renderer/src/views/TimelineRowView'

function overlap1d(a: { x: number; width: number }, b: { x: number; width: number }): boolean {
  return overlaps(a, b)
}

function overlaps(a: { x: number; width: number }, b: { x: number; width: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width
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

  it('crowded marks: a pill where its label has room, else a dot, else hidden; nothing drawn covers anything else', () => {
    const xs = [0, 33, 37, 200]
    const labels = ['503', '503', '503', '200']
    const places = markShapes(xs, labels, 1)
    expect(places.map((p) => p.shape)).toEqual(['pill', 'dot', 'hidden', 'pill'])
    const drawn = xs
      .map((x, i) => (places[i]!.shape === 'pill' ? { x: x - 9, width: pillWidth(labels[i]!) } : places[i]!.shape === 'dot' ? { x: x - 6, width: 12 } : null))
      .filter((b): b is { x: number; width: number } => b !== null)
    for (let i = 0; i < drawn.length; i++) for (let j = i + 1; j < drawn.length; j++) expect(overlap1d(drawn[i]!, drawn[j]!)).toBe(false)
  })

  it('with a second lane, a mark crowding the one before keeps its label on the line under it', () => {
    expect(markShapes([0, 4, 200], ['200', '200', '503'])).toEqual([
      { shape: 'pill', lane: 0 },
      { shape: 'pill', lane: 1 },
      { shape: 'pill', lane: 0 },
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
