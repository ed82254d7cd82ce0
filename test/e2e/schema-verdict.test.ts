// The schema verdict on screen: two real GitHub deliveries (@octokit/webhooks-examples) to a
// GitHub endpoint of a real `hookloop serve`, one missing pull_request.head.repo. Its row carries
// the ✗ schema badge beside the signature's, and the inspector says where, what the schema
// expects, what came and the schema's words. Real Chromium.
import { describe, expect, it } from 'vitest'
import { closedPullRequest, githubHeaders, withoutHeadRepo } from '../support/github-deliveries'
import { createEndpoint, rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'

const session = browserSession()
const SECRET = 'github-webhook-secret'

async function deliver(url: string, payload: unknown): Promise<string> {
  const body = JSON.stringify(payload)
  const headers = githubHeaders(body, SECRET)
  const answer = await fetch(url, { method: 'POST', body, headers })
  expect(answer.status).toBe(200)
  await answer.arrayBuffer()
  return headers['x-github-delivery']!
}

describe('the schema verdict', () => {
  it('a GitHub delivery missing a required field: ✗ schema on its row, the pointer and the schema\u2019s words in the inspector', async () => {
    const { receiverUrl, page } = await session.fresh()
    await createEndpoint(page, { name: 'github', scheme: 'github', secret: SECRET, dedupeHeader: 'x-github-delivery' })
    const valid = await deliver(`${receiverUrl}/h/github`, closedPullRequest())
    const invalid = await deliver(`${receiverUrl}/h/github`, withoutHeadRepo())
    await page.click('[data-testid=nav-timeline]')

    const good = page.locator(rowSelector(`[data-event-id="${valid}"]`))
    await good.locator('[data-schema=valid]').waitFor()
    const row = page.locator(rowSelector(`[data-event-id="${invalid}"]`))
    const badge = row.locator('[data-schema=invalid]')
    await badge.waitFor()
    // Beside the signature's verdict, which is valid: the body, not the signature, is wrong.
    await row.locator('[data-signature=valid]').waitFor()
    expect(await badge.getAttribute('title')).toContain('schema ✗ /pull_request/head/repo: required')

    await row.click()
    const head = page.locator('[data-testid=inspector] [data-testid=schema-badge]')
    expect(await head.innerText()).toBe('schema ✗ /pull_request/head/repo: required')
    const verdict = page.locator('[data-testid=schema-verdict][data-state=invalid]')
    await verdict.waitFor()
    const problem = verdict.locator('[data-testid=schema-problem][data-pointer="/pull_request/head/repo"]')
    await problem.waitFor()
    const text = await problem.innerText()
    expect(text).toContain('required')
    expect(text).toContain('missing')
    expect(await verdict.innerText()).toContain('pull-request-closed')
    await screenshot(page, 'schema-verdict-invalid')
  })
})
