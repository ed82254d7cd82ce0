// What the screen shows, in real Chromium against `hookloop serve`, equals a count in the store's
// SQLite file: every subscription card's figures and its 24 h badge, the top bar's captured
// requests, the timeline's row count; and the toolbar's selection and the Export dialog count the
// same rows (the dialog said "Export 2 rows" beside "1 picked").
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failureRateIsRed } from '../../shared/contract'
import { formatPercent } from '../../renderer/src/lib/format'
import { connectControlAt } from '../integration/host/support/control-client'
import { directMetrics, directRowTotal, seedKnownMix, startConsumer, type DirectMetrics } from '../support/known-mix'
import { createEndpoint, screenshot } from './support/app'
import { createSqliteEngine, openDatabase } from '../../electron/engine/store'
import { createHistoryStore } from '../../electron/engine/store/history'
import { browserSession } from './support/session'

const session = browserSession({ timeoutMs: 30_000 })

/** What a card displays: each figure's text (— when not known), its status buttons' counts, the badge. */
interface Displayed {
  metrics: Record<string, string>
  statuses: Record<string, string>
  badge: string
  red: string | null
}

function expectedDisplay(m: DirectMetrics): Displayed {
  const text = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US'))
  return {
    metrics: { deliveries: text(m.deliveries), attempts: text(m.attempts), successes: text(m.successes), failures: text(m.failures), duplicates: text(m.duplicates) },
    statuses: { all: `all ${m.deliveries}`, ...Object.fromEntries(Object.entries(m.byStatus).map(([s, n]) => [s, `${s} ${n}`])) },
    badge: `${formatPercent(m.failureRate24h)} failed / 24 h`,
    red: String(failureRateIsRed(m.failureRate24h)),
  }
}

describe('the numbers the screen shows, against the store', () => {
  it('cards, badge, top bar and row count equal the store', async () => {
    const served = await session.fresh()
    const page = session.page
    const consumer = await startConsumer()
    const { call, ws } = await connectControlAt(served.origin, served.token)
    try {
      const mix = await seedKnownMix(call, { receiverUrl: served.receiverUrl, consumerUrl: consumer.url })
      const db = new Database(join(served.dataDir, 'hookloop.db'), { readonly: true, fileMustExist: true })
      try {
        await page.click('[data-testid=nav-subscriptions]')
        const ids = Object.values(mix.subs)
        const read = async (): Promise<Record<string, Displayed>> => {
          const out: Record<string, Displayed> = {}
          for (const id of ids) {
            const card = page.locator(`[data-testid=subscription-card][data-subscription="${id}"]`)
            const pairs = async (selector: string, attribute: string, inner: string | null) =>
              Object.fromEntries(
                await card.locator(selector).evaluateAll(
                  (elements, [name, child]) => elements.map((e) => [e.getAttribute(name!) ?? '', (child ? e.querySelector(child) : e)?.textContent ?? '']),
                  [attribute, inner] as const,
                ),
              ) as Record<string, string>
            const badge = card.locator('[data-testid=failure-rate]')
            out[id] = { metrics: await pairs('[data-metric]', 'data-metric', '.value'), statuses: await pairs('[data-testid=show-deliveries]', 'data-status', null), badge: await badge.innerText(), red: await badge.getAttribute('data-red') }
          }
          return out
        }
        const expected = () => Object.fromEntries(ids.map((id) => [id, expectedDisplay(directMetrics(db, id, Date.now()))]))
        let shown = await read()
        for (let i = 0; i < 100 && JSON.stringify(shown) !== JSON.stringify(expected()); i++) {
          await page.waitForTimeout(100)
          shown = await read()
        }
        expect(shown).toEqual(expected())
        // The long simulation's failing delivery is on the card, and its badge is red.
        expect(shown[mix.subs.billing]).toMatchObject({ metrics: { deliveries: '1', attempts: '10', failures: '10', duplicates: '9' }, badge: '100 % failed / 24 h', red: 'true' })
        await page.locator(`[data-subscription="${mix.subs.billing}"]`).scrollIntoViewIfNeeded()
        await screenshot(page, 'numbers-subscription-cards')

        // The top bar: the captured requests of the data folder (read every few seconds).
        const requests = db.prepare('SELECT COUNT(*) FROM requests').pluck().get() as number
        const size = page.locator(`[data-testid=store-size][data-requests="${requests}"]`)
        await size.waitFor()
        expect(await size.innerText()).toMatch(new RegExp(` · ${requests} requests$`))

        // The timeline's row count.
        await page.click('[data-testid=nav-timeline]')
        const total = directRowTotal(db)
        await page.locator(`[data-testid=row-count][data-count="${total}"]`).waitFor()
        expect(await page.locator('[data-testid=row-count]').innerText()).toBe(`${total} rows`)
        expect(await page.locator('[data-testid=nav-row-count]').innerText()).toBe(`${total} rows on the timeline`)
      } finally {
        db.close()
      }
    } finally {
      ws.close()
      await consumer.close()
    }
  })

  it('the toolbar\'s selection and the Export dialog count the same rows', async () => {
    // The dialog said "Export 2 rows" beside "1 picked": it took the open row too, the toolbar did not.
    const served = await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'inbox', scheme: '', dedupeHeader: 'webhook-id' })
    for (const id of ['evt_a', 'evt_b', 'evt_c']) {
      const response = await fetch(`${served.receiverUrl}/h/inbox`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'webhook-id': id } })
      await response.arrayBuffer()
    }
    await page.click('[data-testid=nav-timeline]')
    await page.locator('[data-testid=timeline-row][data-event-id=evt_a]').waitFor()
    await page.locator('[data-testid=timeline-row][data-event-id=evt_c] .tl-meta').click({ modifiers: ['Control'] })
    await page.locator('[data-testid=timeline-row][data-event-id=evt_b] .tl-meta').click()
    await page.click('[data-testid=export-open]')
    const title = await page.locator('[data-testid=export-dialog] h2').innerText()
    const toolbar = await page.locator('[data-testid=timeline-toolbar]').innerText()
    await screenshot(page, 'numbers-export-dialog')
    expect(Number(/(\d+) (?:picked|selected)/.exec(toolbar)?.[1])).toBe(Number(/Export (\d+)/.exec(title)?.[1]))
    expect([await page.locator('[data-testid=selection-count]').innerText(), title]).toEqual(['· 2 selected', 'Export 2 selected rows'])
  })

  it('the inspector says a duplicate arrival\'s first arrival was pruned, not "request #null"', async () => {
    const served = await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'inbox', scheme: '', dedupeHeader: 'webhook-id' })
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${served.receiverUrl}/h/inbox`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_pruned' } })
      await response.arrayBuffer()
    }
    // Retention deletes the first arrival (through the store's own history module, on the same file).
    const db = openDatabase({ file: join(served.dataDir, 'hookloop.db') })
    try {
      await expect.poll(() => db.prepare('SELECT COUNT(*) FROM requests').pluck().get()).toBe(2)
      const first = db.prepare('SELECT MIN(id) FROM requests').pluck().get() as number
      expect(await createSqliteEngine(db, { closeDatabase: false }).transaction((tx) => createHistoryStore(tx).deleteIds([first]))).toBe(1)
    } finally {
      db.close()
    }
    // A fresh load reads the rows again (the store was changed behind the app's back).
    await page.reload()
    await page.waitForSelector('[data-testid=app]')
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator('[data-testid=timeline-row][data-event-id=evt_pruned]')
    await row.locator('.mark').click()
    await expect.poll(() => page.locator('[data-testid=duplicate-number]').innerText()).toBe('duplicate arrival #2 of this dedupe key (its first arrival was pruned)')
    expect(await row.locator('[data-duplicates]').innerText()).toBe('1 dup')
  })
})

