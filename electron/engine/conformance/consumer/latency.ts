// p50/p95 over the latency samples. Nearest-rank percentiles: with few samples (10 by default)
// every reported value is a time that was actually measured, never an interpolation.
import type { LatencyStats, ProbeObservation } from '../../../../shared/conformance'

/** The nearest-rank percentile (0 < p ≤ 100) of values; 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1] as number
}

export function latencyStats(probes: readonly ProbeObservation[]): LatencyStats {
  const durations = probes.map((p) => p.duration_ms)
  return {
    samples: probes.length,
    p50_ms: percentile(durations, 50),
    p95_ms: percentile(durations, 95),
    min_ms: durations.length ? Math.min(...durations) : 0,
    max_ms: durations.length ? Math.max(...durations) : 0,
    non_2xx: probes.filter((p) => !isSuccess(p)).length,
    durations_ms: durations,
  }
}

export function isSuccess(probe: ProbeObservation): boolean {
  return probe.status_code !== null && probe.status_code >= 200 && probe.status_code < 300
}
