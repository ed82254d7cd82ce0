// Forward targets are checked when a rule or an endpoint is saved: a target that points back at
// this receiver (its local port, or the tunnel's public URL) would forward each request to
// itself, forever. The error names the field, like every other definition error.
import { DefinitionError } from '../../../shared/receiver'
import type { Rule, Step } from '../../../shared/receiver'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0', '[::]'])

export interface ReceiverSelf {
  /** The host the receiver is bound to and its port. */
  host: string
  port: number
  /** The public base URL when a tunnel is up. */
  publicUrl?: string | undefined
}

function pointsAtSelf(text: string, self: ReceiverSelf): boolean {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false // the schema already refused it
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
  const host = url.hostname.toLowerCase()
  const boundAnywhere = self.host === '0.0.0.0' || self.host === '::'
  if (port === self.port && (LOOPBACK.has(host) || host === self.host.toLowerCase() || boundAnywhere)) return true
  if (self.publicUrl) {
    try {
      if (new URL(self.publicUrl).host.toLowerCase() === url.host.toLowerCase()) return true
    } catch {
      // no usable public URL: nothing to compare with
    }
  }
  return false
}

function stepTargets(steps: readonly Step[], path: string): { path: string; url: string }[] {
  const out: { path: string; url: string }[] = []
  steps.forEach((step, i) => {
    if (step.type === 'forward' || step.type === 'forward-copy') out.push({ path: `${path}[${i}].url`, url: step.url })
  })
  return out
}

export function ruleTargets(rule: Rule): { path: string; url: string }[] {
  const out = rule.steps ? stepTargets(rule.steps, 'steps') : []
  rule.sequence?.items.forEach((items, i) => out.push(...stepTargets(items, `sequence.items[${i}]`)))
  return out
}

/** Throws DefinitionError naming the first target that points back at this receiver. */
export function refuseLoops(targets: readonly { path: string; url: string }[], self: ReceiverSelf): void {
  for (const target of targets) {
    if (pointsAtSelf(target.url, self)) {
      throw new DefinitionError(target.path, `${target.url} points back at this receiver: every request would be forwarded to itself (a loop). Forward to your app's own port.`)
    }
  }
}
