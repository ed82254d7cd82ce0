// Who holds a delivery's claim (store/deliveries.ts), and whether that holder is gone. A claim
// names its process as host:pid:sender; its lease runs out a timeout and a margin after the
// attempt started. A holder on this machine whose process no longer exists has died for certain
// (a kill -9, a crash): its claims are taken over at once, without waiting for the lease.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { processRuns } from '../store'

export function newClaimOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`
}

/** Whether a claim can be taken over: no holder, its lease ran out, or its process on this machine is gone. */
export function claimAbandoned(claim: { claimed_by: string | null; lease_until: number | null }, wallNow: number): boolean {
  if (claim.claimed_by === null || claim.lease_until === null || claim.lease_until < wallNow) return true
  return ownerGone(claim.claimed_by)
}

/** Whether the process an owner (host:pid:sender) names is certainly gone: on this machine, and no longer running. */
export function ownerGone(owner: string): boolean {
  const [host, pid] = owner.split(':')
  const n = Number(pid)
  return host === hostname() && Number.isSafeInteger(n) && n !== process.pid && !processRuns(n)
}
