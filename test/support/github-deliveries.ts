// Real GitHub webhook payloads (@octokit/webhooks-examples: deliveries GitHub sent) for the schema
// verdict's tests: a pull_request.closed that GitHub's current webhooks document accepts, the same
// with a required field removed, and the headers GitHub sends with one, signed.
import { createRequire } from 'node:module'
import { sign } from '../../electron/engine/signatures'

interface Examples {
  name: string
  examples: Record<string, unknown>[]
}
export const GITHUB_EXAMPLES = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Examples[]

export interface PullRequestPayload {
  pull_request: { head: { repo?: unknown } }
}

/** The first example of an event (and action): a fresh copy. */
export function githubExample(event: string, action?: string): Record<string, unknown> {
  const found = GITHUB_EXAMPLES.find((e) => e.name === event)?.examples.find((x) => action === undefined || x.action === action)
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${event} ${action ?? ''}`)
  return structuredClone(found)
}

/** A real pull_request.closed delivery, valid against GitHub's webhook pull-request-closed. */
export const closedPullRequest = () => githubExample('pull_request', 'closed') as unknown as PullRequestPayload

/** The same without pull_request.head.repo, which the schema requires. */
export function withoutHeadRepo(): PullRequestPayload {
  const payload = closedPullRequest()
  delete payload.pull_request.head.repo
  return payload
}

/** The headers GitHub sends with every delivery of an event (docs.github.com, "Delivery headers"), unsigned. */
export function githubDeliveryHeaders(event = 'pull_request'): Record<string, string> {
  return {
    'user-agent': 'GitHub-Hookshot/044aadd',
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': crypto.randomUUID(),
    'x-github-hook-id': '292430182',
    'x-github-hook-installation-target-id': '79929171',
    'x-github-hook-installation-target-type': 'repository',
  }
}

/** The headers of a GitHub delivery of this body, signed with the secret. */
export function githubHeaders(body: string, secret: string, event = 'pull_request'): Record<string, string> {
  return { ...githubDeliveryHeaders(event), ...sign('github', { body: Buffer.from(body), secret }) }
}
