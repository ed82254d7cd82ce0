// The captured history's size and how long it is kept: what the store reports, what retention
// is set to, and what a prune did. Plain JSON, shared by the engine, the CLI and the UI.

/** Keep captures for `days` days and/or while the store holds at most `maxMb` MB; null = no limit of that kind. */
export interface RetentionSettings {
  days: number | null
  maxMb: number | null
}

/** Sensible for a laptop: a month of captures, at most 1 GiB. */
export const DEFAULT_RETENTION: RetentionSettings = { days: 30, maxMb: 1024 }

/** Bounds the settings take (the UI, the CLI and the contract check the same ones). */
export const RETENTION_LIMITS = { days: { min: 1, max: 3650 }, maxMb: { min: 1, max: 1_048_576 } } as const

export interface StoreSizeView {
  /** The database file's pages. */
  fileBytes: number
  /** Pages in use (free pages not counted): what the size limit compares. */
  usedBytes: number
  /** The write-ahead log beside it. */
  walBytes: number
  requests: number
  /** received_at of the oldest capture, null when there is none. */
  oldestAt: number | null
  retention: RetentionSettings
}

export interface PruneResult {
  /** Requests deleted. */
  deleted: number
  /** Settled deliveries deleted, with their attempts; and events left without a delivery. */
  deliveries: number
  attempts: number
  events: number
  /** Their bodies and headers, in bytes. */
  bytes: number
  batches: number
  /** Free pages given back to the file system (incremental vacuum). */
  reclaimedPages: number
  size: StoreSizeView
}

/** "1.5 MB" for the UI and the CLI (decimal units, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`
}
