// The Checks page's handshake option in real Chromium: the handshake select lists the snapshot's
// catalog, and a Bolt app on its ExpressReceiver (Bolt answers Slack url_verification itself,
// after verifying the signature) is graded like `hookloop check --handshake` grades it: ✓ with
// the right signing secret, ✗ with the provider's requirement under a wrong one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANDSHAKE_KINDS, HANDSHAKES } from '../../shared/receiver'
import { startBoltApp, type BoltApp } from '../support/bolt-app'
import { screenshot } from './support/app'
import { browserSession } from './support/session'

const session = browserSession({ timeoutMs: 30_000 })
const SLACK_SECRET = '8f742231b10e8888abcd99yyyzzz85a5'

describe('the Checks page makes a provider handshake', () => {
  let bolt: BoltApp
  beforeAll(async () => {
    bolt = await startBoltApp(SLACK_SECRET)
  })
  afterAll(async () => {
    await bolt.close()
  })

  async function check(secret: string) {
    const page = session.page
    await page.click('[data-testid=nav-checks]')
    await page.fill('[data-testid=consumer-url]', bolt.url)
    await page.selectOption('[data-testid=consumer-scheme]', '')
    await page.selectOption('[data-testid=consumer-handshake]', 'slack-url-verification')
    await page.fill('[data-testid=consumer-secret]', secret)
    await page.click('[data-testid=consumer-run]')
    const verdict = page.locator('[data-testid=consumer-verdict]')
    await verdict.waitFor()
    const lines = await page.locator('[data-testid=consumer-check-line]').evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-check'), severity: e.getAttribute('data-severity'), text: e.textContent ?? '' })))
    return { ok: await verdict.getAttribute('data-ok'), lines, checked: await page.locator('[data-testid=consumer-checked]').textContent() }
  }

  it('lists the catalog, and grades a Bolt app\'s answer: ✓ with its signing secret', async () => {
    await session.fresh()
    const page = session.page
    await page.click('[data-testid=nav-checks]')
    const options = await page.locator('[data-testid=consumer-handshake] option').evaluateAll((els) => els.map((e) => [e.getAttribute('value'), e.textContent]))
    expect(options).toEqual([['', 'none'], ...HANDSHAKE_KINDS.map((kind) => [kind, HANDSHAKES.entries[kind].label])])
    await page.selectOption('[data-testid=consumer-handshake]', 'slack-url-verification')
    expect(await page.locator('[data-testid=consumer-handshake-answer]').textContent()).toBe(`Slack needs ${HANDSHAKES.entries['slack-url-verification'].answer}.`)

    const result = await check(SLACK_SECRET)
    expect(result.ok).toBe('true')
    expect(result.checked).toContain(`${bolt.url} · slack-url-verification handshake ·`)
    expect(result.lines).toHaveLength(1)
    expect(result.lines[0]).toMatchObject({ severity: 'pass' })
    expect(result.lines[0]?.text).toMatch(/^✓/)
    await screenshot(page, 'checks-handshake-pass')
  })

  it('with a wrong signing secret Bolt refuses the handshake: ✗, with what Slack needs and how to fix it', async () => {
    await session.fresh()
    const result = await check('not-the-slack-signing-secret')
    expect(result.ok).toBe('false')
    expect(result.lines).toHaveLength(1)
    expect(result.lines[0]).toMatchObject({ severity: 'fail' })
    expect(result.lines[0]?.text).toMatch(/^✗/)
    expect(result.lines[0]?.text).toContain('401')
    expect(result.lines[0]?.text).toContain(`How to fix: Slack needs ${HANDSHAKES.entries['slack-url-verification'].answer}.`)
    await screenshot(session.page, 'checks-handshake-fail')
  })
})
