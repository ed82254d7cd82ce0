// `hookloop listen` runs the data folder's retention, as the app and `hookloop serve` do: a real
// process on a real data folder whose oldest captures are past the window; it prunes them (and a
// settled delivery as old) soon after start, logs a line saying so, keeps what is newer, and
// saves --keep-days / --keep-mb as the folder's retention.
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createEngine } from '../../../electron/engine/engine'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'

const DAY = 86_400_000

/** Starts `hookloop listen` and resolves once `predicate` holds for its output; then SIGINT. */
async function listenUntil(args: string[], predicate: (out: string) => boolean): Promise<{ code: number | null; stdout: string }> {
  const cli = await startListen(args)
  await cli.waitForOutput(predicate)
  cli.kill()
  return { code: await cli.exited, stdout: cli.stdout }
}

describe('hookloop listen retention', () => {
  const temp = useTempDir('hookloop-listen-retention-')

  it('prunes history past the folder retention soon after start, logs it, and keeps what is newer', async () => {
    // A data folder with three captures and one settled delivery; two captures and the delivery made 40 days old.
    const engine = await createEngine({ dataDir: temp.dir, clock: createRealClock(), receiver: { host: '127.0.0.1', port: 0 } })
    await engine.putEndpoint({ slug: 'shop' })
    const sub = await engine.putSubscription({ name: 'loop', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', policy: 'csku' })
    const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { n: 1 } })
    for (let i = 0; i < 500 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    for (const n of [2, 3]) await (await fetch(engine.receiver.endpointUrl('shop'), { method: 'POST', body: `{"n":${n}}` })).arrayBuffer()
    await engine.quiesce()
    const old = Date.now() - 40 * DAY
    engine.db.prepare('UPDATE requests SET received_at = ?, stored_at = ? WHERE id IN (SELECT id FROM requests ORDER BY id LIMIT 2)').run(old, old)
    engine.db.prepare('UPDATE deliveries SET created_at = ?, updated_at = ?, created_wall_at = ?').run(old, old, old)
    await engine.close()

    const { code, stdout } = await listenUntil(['--data', temp.dir], (out) => out.includes('(retention)'))
    expect(code).toBe(0)
    expect(stdout).toContain('Retention: 30 days, at most 1024 MB')
    expect(stdout).toMatch(/\(retention\) {2}Pruned 2 requests, 1 settled delivery \(1 attempt\), 1 event \(.+\) in \d+ batch(es)?\. Store: .* 1 request kept\./)
    const db = new BetterSqlite3(join(temp.dir, 'hookloop.db'), { readonly: true })
    try {
      expect(db.prepare('SELECT body FROM requests').pluck().all().map((b) => String(b))).toEqual(['{"n":3}'])
      expect(db.prepare('SELECT count(*) FROM deliveries').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })

  it('--keep-days and --keep-mb are saved as the folder retention; bad values exit 2', async () => {
    const { code, stdout } = await listenUntil(['--data', temp.dir, '--keep-days', '7', '--keep-mb', 'none'], (out) => out.includes('Press Ctrl-C'))
    expect(code).toBe(0)
    expect(stdout).toContain('Retention: 7 days, no size limit')
    const again = await listenUntil(['--data', temp.dir], (out) => out.includes('Press Ctrl-C'))
    expect(again.stdout).toContain('Retention: 7 days, no size limit')
    const bad = await runCli(['listen', '--port', '0', '--data', temp.dir, '--keep-days', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--keep-days takes a whole number from 1 to 3650, or "none"; "soon" is not one')
    const outOfBounds = await runCli(['listen', '--port', '0', '--data', temp.dir, '--keep-days', '0'])
    expect(outOfBounds.code).toBe(2)
    expect(outOfBounds.stderr).toContain('--keep-days takes a whole number from 1 to 3650, or "none"; "0" is not one')
  })
})
