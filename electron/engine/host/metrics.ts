// The server's Prometheus metrics (GET /metrics, probe-routes.ts): every name, its help text and
// its labels are declared here, once; docs/team.md ("Metrics") lists the same. Labels take a few
// fixed words only, never a path, an id, an address or anything a sender chose, so the scrape
// carries no user data and its series stay few.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { EngineEvent } from '../engine'
import type { DueQueue } from '../store'

export const METRICS = {
  requestsCaptured: { name: 'hookloop_requests_captured_total', help: 'Requests the receiver captured and recorded (every path, refused bodies included).' },
  requestsRefused: {
    name: 'hookloop_requests_refused_total',
    help: 'Requests the receiver refused itself, by reason: bad_request, slow_request and headers_too_large before a request could be read; store_unreachable while a team\'s PostgreSQL cannot be reached (nothing captured); http_<status> for a recorded request it answered with an error (413, 408, 503 …); store_failed when its capture could not be committed.',
    labels: ['reason'],
  },
  attempts: {
    name: 'hookloop_attempts_total',
    help: 'Delivery attempts finished, by outcome: http_2xx … http_5xx (the status class), timeout, connection_refused, reset, dns, connection_error, dropped, interrupted.',
    labels: ['outcome'],
  },
  dueDeliveries: { name: 'hookloop_due_deliveries', help: 'Deliveries on the wall clock whose next attempt is due now and not started (read from the store at each scrape).' },
  dueLag: { name: 'hookloop_due_lag_seconds', help: 'How late the oldest due delivery is, in seconds; 0 when none is due.' },
  uiClients: { name: 'hookloop_ui_clients', help: 'Live UI connections: WebSockets open on the control server.' },
  storeLatency: {
    name: 'hookloop_store_read_seconds',
    help: 'Time the store took to answer the server\'s own reads, by read: probe (the /readyz statement), due_queue (the queue read at each scrape).',
    labels: ['read'],
  },
  draining: { name: 'hookloop_draining', help: '1 while the server drains after SIGTERM or SIGINT (it answers requests in flight and takes no new ones), else 0.' },
} as const

export type StoreRead = 'probe' | 'due_queue'

/** What the metrics read at scrape time, from the host. */
export interface MetricsSources {
  uiClients(): number
  dueQueue(): Promise<DueQueue>
  draining(): boolean
  wallNow(): number
}

export interface HostMetrics {
  readonly registry: Registry
  /** Counts what the receiver and the sender tell the engine's event stream. */
  observe(event: EngineEvent): void
  /** Times one of the server's store reads into hookloop_store_read_seconds. */
  timeStoreRead<T>(read: StoreRead, work: () => Promise<T>): Promise<T>
  /** The Prometheus text exposition of everything above plus the process's default metrics. */
  text(): Promise<string>
  readonly contentType: string
}

/** http_503 → http_5xx: a status class, not every code a consumer can answer. */
export function attemptOutcomeLabel(outcome: string): string {
  const status = /^http_(\d)\d\d$/.exec(outcome)
  return status ? `http_${status[1]}xx` : outcome
}

export function createHostMetrics(sources: MetricsSources): HostMetrics {
  // A registry of this server's own: two hosts in one process (tests) never share a series.
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const captured = new Counter({ ...METRICS.requestsCaptured, registers: [registry] })
  const refused = new Counter({ ...METRICS.requestsRefused, labelNames: METRICS.requestsRefused.labels, registers: [registry] })
  const attempts = new Counter({ ...METRICS.attempts, labelNames: METRICS.attempts.labels, registers: [registry] })
  const storeLatency = new Histogram({
    ...METRICS.storeLatency,
    labelNames: METRICS.storeLatency.labels,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  const timeStoreRead = async <T>(read: StoreRead, work: () => Promise<T>): Promise<T> => {
    const end = storeLatency.startTimer({ read })
    try {
      return await work()
    } finally {
      end()
    }
  }
  // The queue is read once per scrape, for both gauges.
  let queueRead: Promise<DueQueue> | null = null
  const dueQueue = (): Promise<DueQueue> => {
    queueRead ??= timeStoreRead('due_queue', sources.dueQueue).finally(() => setImmediate(() => (queueRead = null)))
    return queueRead
  }
  new Gauge({
    ...METRICS.dueDeliveries,
    registers: [registry],
    async collect() {
      this.set((await dueQueue()).due)
    },
  })
  new Gauge({
    ...METRICS.dueLag,
    registers: [registry],
    async collect() {
      const { oldestDueAt } = await dueQueue()
      this.set(oldestDueAt === null ? 0 : Math.max(0, sources.wallNow() - oldestDueAt) / 1000)
    },
  })
  new Gauge({
    ...METRICS.uiClients,
    registers: [registry],
    collect() {
      this.set(sources.uiClients())
    },
  })
  new Gauge({
    ...METRICS.draining,
    registers: [registry],
    collect() {
      this.set(sources.draining() ? 1 : 0)
    },
  })
  // Every reason starts at 0, so a rate() over it has a series before the first refusal.
  for (const reason of ['bad_request', 'slow_request', 'headers_too_large', 'store_unreachable']) refused.inc({ reason }, 0)

  return {
    registry,
    contentType: registry.contentType,
    timeStoreRead,
    observe(event) {
      switch (event.type) {
        case 'request.captured':
          captured.inc()
          break
        case 'connection.refused':
          refused.inc({ reason: event.reason })
          break
        case 'request.responded':
          if (event.outcome === 'refused') refused.inc({ reason: event.status === null ? 'refused' : `http_${event.status}` })
          else if (event.outcome === 'store_failed') refused.inc({ reason: 'store_failed' })
          break
        case 'attempt.finished':
          attempts.inc({ outcome: attemptOutcomeLabel(event.attempt.outcome) })
          break
        default:
          break
      }
    },
    text: () => registry.metrics(),
  }
}
