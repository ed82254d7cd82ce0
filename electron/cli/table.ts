import { formatRunOffset } from '../../shared/clock'

// A plain-text table for a terminal or `cut`/`awk`: a header row, columns padded with two spaces,
// the last column unpadded so a line never ends in spaces.
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')
  return [line(header), ...rows.map(line)].join('\n') + '\n'
}

/** A wall time as ISO 8601 (UTC, seconds): what `--since` takes back. */
export function isoSeconds(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * The CLOCK cell of a row: "wall", or where the row sits in its simulation ("simulated +14 m 00 s
 * (simulation …)"): a simulated time is never printed as a date (docs/time.md).
 */
export function clockCell(at: number, simulation: { id: string | null; startedAt: number | null }): string {
  if (simulation.id === null) return 'wall'
  return simulation.startedAt === null ? `simulated (simulation ${simulation.id})` : `simulated ${formatRunOffset(at - simulation.startedAt)} (simulation ${simulation.id})`
}
