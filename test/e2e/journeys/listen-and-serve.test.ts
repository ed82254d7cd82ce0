// A morning with the command line and the app on one data folder: `hookloop listen --data D`
// captures a real client's signed POSTs (undici's fetch), `hookloop serve --data D` is opened on
// the same folder, and what the screen shows — rows, their requests and duplicates, the row count,
// the top bar's "N req" — equals a direct count in the SQLite file, before and while both run.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { rowSelector } from '../support/app'
import { postStandardWebhook } from '../support/post'
import { journey, screenRowCount, screenRows, shot, startListen, withStore } from '../support/journey'

const day = journey('listen-and-serve')
const SECRET = `whsec_${Buffer.from('listen-and-serve-secret-32-bytes').toString('base64')}`

const postSigned = (url: string, id: string): Promise<number> => postStandardWebhook(url, SECRET, id, JSON.stringify({ type: 'order.paid', data: { order_id: `o_${id}` } }))

/** Rows the store holds for received traffic: one per (endpoint, dedupe key), with its requests. */
function storeRows(data: string) {
  return withStore(data, (store) => ({
    requests: store.count('SELECT COUNT(*) FROM requests'),
    valid: store.count('SELECT COUNT(*) FROM requests WHERE verify_valid = 1'),
    rows: store.all<{ key: string; requests: number }>('SELECT dedupe_key AS key, COUNT(*) AS requests FROM requests GROUP BY endpoint_id, dedupe_key ORDER BY key'),
  }))
}

describe('journey: listen and serve on one data folder', () => {
  it('what listen captured, before and while the app is open, is on screen and equals the store', async () => {
    const listening = await day.listen({ endpoints: [{ slug: 'shop', name: 'Shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks' }] })
    const shop = `${listening.url}/h/shop`
    // Before the app is open: three events, the second one retried by its sender.
    for (const id of ['evt_morning_1', 'evt_morning_2', 'evt_morning_2']) expect(await postSigned(shop, id)).toBe(200)

    await day.serve()
    const page = day.page
    // The app shows what is in the folder: not the first-run state.
    await page.locator(rowSelector('[data-event-id=evt_morning_2][data-attempts="2"]')).waitFor()
    expect(await page.locator('[data-testid=first-run]').count()).toBe(0)
    await shot(page, 'listen-and-serve-1-opened')

    // While both run: more traffic, which the app shows live (it polls the folder).
    for (const id of ['evt_noon_3', 'evt_morning_2', 'evt_noon_4', 'evt_noon_3']) expect(await postSigned(shop, id)).toBe(200)
    await page.locator(rowSelector('[data-event-id=evt_noon_4]')).waitFor()
    await page.locator(rowSelector('[data-event-id=evt_morning_2][data-attempts="3"]')).waitFor()
    await page.locator(rowSelector('[data-event-id=evt_noon_3][data-attempts="2"]')).waitFor()

    const store = storeRows(day.data)
    expect(store.requests).toBe(7)
    expect(store.valid).toBe(7)
    // The top bar counts the store's captured requests.
    await page.locator(`[data-testid=store-size][data-requests="${store.requests}"]`).waitFor()
    // One row per event id at the endpoint, each with as many requests as the store has for it.
    expect(await screenRowCount(page)).toBe(store.rows.length)
    const shown = await screenRows(page)
    expect(shown.map((r) => [r.eventId, r.attempts]).sort()).toEqual(store.rows.map((r) => [r.key, r.requests]))
    for (const row of shown) {
      expect(row.status).toBe('received')
      expect(row.signature).toBe('valid')
      expect(row.marks).toHaveLength(row.attempts)
      expect(row.duplicates).toBe(row.attempts - 1)
    }
    await shot(page, 'listen-and-serve-2-live')

    // "Show on timeline" on listen's endpoint (written by the other process) shows its rows.
    await page.click('[data-testid=nav-endpoints]')
    await page.locator('[data-testid=endpoint-card][data-endpoint=shop] button:text-is("Show on timeline")').click()
    await page.locator(rowSelector('[data-event-id=evt_noon_4]')).waitFor()
    expect(await screenRowCount(page)).toBe(store.rows.length)
    await page.click('[data-testid=nav-timeline]')

    // A second listen, its folder named only by HOOKLOOP_DATA (the default moved aside so a wrong
    // folder is not the user's): its capture is on the same screen, counted in the same store.
    const evening = await startListen(['--port', '0'], { ...process.env, HOOKLOOP_DATA: day.data, XDG_DATA_HOME: join(day.work, 'xdg') })
    day.track(evening)
    expect(evening.output.join('\n')).toContain(day.data)
    expect(await postSigned(`${evening.url}/h/shop`, 'evt_evening_5')).toBe(200)
    await page.locator(rowSelector('[data-event-id=evt_evening_5]')).waitFor()
    const after = storeRows(day.data)
    expect(after.requests).toBe(8)
    await page.locator(`[data-testid=store-size][data-requests="${after.requests}"]`).waitFor()
    expect(await screenRowCount(page)).toBe(after.rows.length)
  })
})
