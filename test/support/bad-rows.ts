// A data folder a real engine filled (two endpoints with a rule each, two subscriptions), then one
// row of each checked table damaged as a hand edit or another build might: an endpoint's settings,
// a rule's definition, a subscription's retry policy and the folder's saved retention no longer parse.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createEngine } from '../../electron/engine/engine'

export interface BadFolder {
  badEndpointId: string
  badRuleId: string
  badSubscriptionId: string
  goodSubscriptionId: string
}

export async function fillFolderWithBadRows(dataDir: string): Promise<BadFolder> {
  const engine = await createEngine({ dataDir, receiver: { host: '127.0.0.1', port: 0 } })
  let made: Omit<BadFolder, 'badRuleId'>
  try {
    const bad = await engine.putEndpoint({ slug: 'broken', rules: [{ preset: 'always-500' }] })
    await engine.putEndpoint({ slug: 'shop', rules: [{ preset: 'fail-first', n: 2 }] })
    const good = await engine.putSubscription({ name: 'orders', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', policy: 'csku' })
    const damaged = await engine.putSubscription({ name: 'invoices', target: { url: 'http://127.0.0.1:9/hook' }, scheme: 'standard-webhooks', policy: 'csku' })
    made = { badEndpointId: bad.id, badSubscriptionId: damaged.id, goodSubscriptionId: good.id }
  } finally {
    await engine.close()
  }
  const db = new Database(join(dataDir, 'hookloop.db'))
  try {
    db.prepare(`UPDATE endpoints SET config_json = '{"toleranceSeconds":"soon"}' WHERE id = ?`).run(made.badEndpointId)
    const shopRule = db.prepare(`SELECT r.id FROM rules r JOIN endpoints e ON e.id = r.endpoint_id WHERE e.slug = 'shop'`).pluck().get() as string
    db.prepare(`UPDATE rules SET definition_json = '{"matchers":[],"steps":[{"type":"explode"}]}' WHERE id = ?`).run(shopRule)
    db.prepare(`UPDATE subscriptions SET policy_json = '{"max_attempts":"many"}' WHERE id = ?`).run(made.badSubscriptionId)
    db.prepare(`INSERT INTO settings (key, value_json) VALUES ('retention', '{"days":') ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json`).run()
    return { ...made, badRuleId: shopRule }
  } finally {
    db.close()
  }
}
