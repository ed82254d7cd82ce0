// Through the tunnel in scenario files: `tunnel` opens a public tunnel to the run's receiver
// before the first event, so loop-mode subscriptions deliver to the public URL (as a provider
// would) instead of loopback: sender → tunnel server → receiver with its faults → forward → your
// app, one timeline. `hookloop run --tunnel-host URL` (or HOOKLOOP_TUNNEL_HOST) points the same
// file at another tunnel server (a self-hosted one in CI).
import { z } from 'zod'

export const DEFAULT_SCENARIO_TUNNEL_WAIT_MS = 30_000

export const scenarioTunnelSchema = z.strictObject({
  /** The localtunnel server (https://localtunnel.me when absent), or a self-hosted one. */
  host: z.url({ protocol: /^https?$/, error: 'a tunnel host is an http:// or https:// URL, like https://localtunnel.me' }).optional(),
  /** Ask for this subdomain; the server may grant another (the report shows the URL used). */
  subdomain: z.string().min(1).optional(),
  /** Real time to wait for the tunnel to come online before the first event; the run fails after it. */
  online_within_ms: z.number().int().positive().default(DEFAULT_SCENARIO_TUNNEL_WAIT_MS),
})
export type ScenarioTunnel = z.infer<typeof scenarioTunnelSchema>

/** How the run reached its endpoints, as the report says it. */
export interface ReportTunnel {
  /** The tunnel server asked. */
  host: string
  /** The public URL the run's loop deliveries went to. */
  url: string
  /** Loop attempts that went straight to the receiver because the tunnel was down at the time (0 when all took it). */
  bypassed_attempts: number
}
