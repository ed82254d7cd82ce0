// `hookloop requests`, `hookloop deliveries` and `hookloop export`'s filters as real processes over
// a data folder a real engine filled (signed, duplicate, badly signed, unverified and refused
// requests; a loop-mode delivery and one to a URL that refuses connections): each filter narrows,
// a shell pipes `requests --json` into `export --requests`, and nothing but results reaches a pipe.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import type { DeliveryListRow, RequestListRow } from '../../../electron/engine/store/list-reads'
import { sign } from '../../../electron/engine/signatures'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SECRET = `whsec_${randomBytes(24).toString('base64')}`
const WRONG = `whsec_${randomBytes(24).toString('base64')}`
const HOUR = 3_600_000

let temp: ReturnType<typeof makeTempDir>
let dir: string
let loopEventId: string

async function post(url: string, body: string, secret: string | null, id: string): Promise<void> {
  const headers = secret ? sign('standard-webhooks', { body: Buffer.from(body), secret, id }) : {}
  await (await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })).arrayBuffer()
}

beforeAll(async () => {
  temp = makeTempDir('hookloop-lists-')
  dir = join(temp.dir, 'data')
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks' })
    await engine.putEndpoint({ slug: 'plain' })
    await engine.putEndpoint({ slug: 'tiny', body_limit: 16 })
    const shop = engine.receiver.endpointUrl('shop')
    await post(shop, '{"n":1}', SECRET, 'msg_AbC1')
    await post(shop, '{"n":1}', SECRET, 'msg_AbC1')
    await post(shop, '{"n":2}', WRONG, 'msg_Zz9')
    await post(engine.receiver.endpointUrl('plain'), '{"old":true}', null, 'x')
    await post(engine.receiver.endpointUrl('plain'), '{"n":3}', null, 'x')
    await post(engine.receiver.endpointUrl('tiny'), JSON.stringify({ pad: 'x'.repeat(100) }), null, 'x')
    const loop = await engine.putSubscription({ name: 'loop', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
    const outside = await engine.putSubscription({ name: 'outside', target: { url: 'http://127.0.0.1:9/refused' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
    const sent = await engine.sendEvent({ subscriptionIds: [loop.id], eventType: 'order.paid', payload: { id: 1 } })
    loopEventId = sent.eventId
    await engine.sendEvent({ subscriptionIds: [outside.id], eventType: 'order.paid', payload: { id: 2 } })
    for (let i = 0; i < 500 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((r) => setTimeout(r, 10))
    await engine.quiesce()
  } finally {
    await engine.close()
  }
  // Three hours back on the wall clock: the first request to plain, and the delivery to outside.
  const db = new Database(join(dir, 'hookloop.db'))
  db.prepare(`UPDATE requests SET received_at = received_at - @back, stored_at = stored_at - @back WHERE id = (SELECT MIN(r.id) FROM requests r JOIN endpoints e ON e.id = r.endpoint_id WHERE e.slug = 'plain')`).run({ back: 3 * HOUR })
  db.prepare(`UPDATE deliveries SET created_wall_at = created_wall_at - ? WHERE subscription_id = (SELECT id FROM subscriptions WHERE name = 'outside')`).run(3 * HOUR)
  db.close()
}, 60_000)
afterAll(() => temp.cleanup())

async function requests(...args: string[]): Promise<RequestListRow[]> {
  const result = await runCli(['requests', '--data', dir, '--json', ...args])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return (JSON.parse(result.stdout) as { requests: RequestListRow[] }).requests
}

async function deliveries(...args: string[]): Promise<DeliveryListRow[]> {
  const result = await runCli(['deliveries', '--data', dir, '--json', ...args])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return (JSON.parse(result.stdout) as { deliveries: DeliveryListRow[] }).deliveries
}

describe('hookloop requests', () => {
  it('lists every captured request newest first, as a table led by the id and as JSON', async () => {
    const all = await requests()
    // Six sent by hand, one by the loop delivery.
    expect(all).toHaveLength(7)
    expect(all.map((r) => r.storedAt)).toEqual([...all.map((r) => r.storedAt)].sort((a, b) => b - a))
    const table = await runCli(['requests', '--data', dir])
    expect(table.code).toBe(0)
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STORED\s+ENDPOINT\s+REQUEST\s+EVENT ID\s+VERDICT\s+SCHEMA\s+DUP\s+ANSWER\s+CLOCK$/)
    expect(lines.slice(1).map((line) => Number(line.split(/\s+/)[0]))).toEqual(all.map((r) => r.id))
  })

  it('narrows by endpoint, event id prefix in any case, status words, since and limit', async () => {
    expect((await requests('--endpoint', 'plain')).map((r) => r.endpointSlug)).toEqual(['plain', 'plain'])
    const byPrefix = await requests('--event-id', 'MSG_abc')
    expect(byPrefix.map((r) => r.eventId)).toEqual(['msg_AbC1', 'msg_AbC1'])
    expect(byPrefix.map((r) => r.duplicateNumber)).toEqual([2, 1])
    const duplicate = await requests('--status', 'duplicate')
    expect(duplicate.map((r) => [r.eventId, r.duplicateNumber])).toEqual([['msg_AbC1', 2]])
    const invalid = await requests('--status', 'invalid')
    expect(invalid.map((r) => [r.eventId, r.verdict, r.verifyReason])).toEqual([['msg_Zz9', 'invalid', 'signature_mismatch']])
    const refused = await requests('--status', 'refused')
    expect(refused.map((r) => [r.endpointSlug, r.responseStatus])).toEqual([['tiny', 413]])
    // The loop delivery's request reached shop signed: valid, like the two by hand.
    expect((await requests('--status', 'valid')).every((r) => r.endpointSlug === 'shop' && r.verdict === 'valid')).toBe(true)
    expect(await requests('--status', 'valid')).toHaveLength(3)
    expect((await requests('--status', 'invalid,refused')).map((r) => r.verdict === 'invalid' || r.refusedReason !== null)).toEqual([true, true])
    expect((await requests('--endpoint', 'plain', '--since', '2h')).map((r) => r.endpointSlug)).toEqual(['plain'])
    expect(await requests('--endpoint', 'plain', '--since', '4h')).toHaveLength(2)
    expect(await requests('--since', new Date(Date.now() + HOUR).toISOString())).toEqual([])
    const limited = await requests('--limit', '2')
    expect(limited.map((r) => r.id)).toEqual((await requests()).slice(0, 2).map((r) => r.id))
  })

  it('names what is wrong with a filter (exit 2)', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--status', 'bogus'], /requests: --status "bogus" is not one of valid, invalid, none, duplicate, refused/],
      [['--endpoint', 'nope'], /requests: no endpoint "nope" \(slug or id\) in /],
      [['--since', 'yesterday'], /requests: --since takes a duration like 90s, 15m, 2h, 7d or 2w, or an ISO time .*"yesterday" is neither/],
      [['--limit', '0'], /requests: --limit takes a whole number from 1 to 100000; "0" is not one/],
      [['--subscription', 'loop'], /requests: --subscription filters deliveries/],
    ]
    for (const [args, message] of cases) {
      const result = await runCli(['requests', '--data', dir, ...args])
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(message)
    }
  })
})

describe('hookloop deliveries', () => {
  it('lists deliveries and narrows by subscription, endpoint, status, event id and since', async () => {
    const all = await deliveries()
    expect(all.map((d) => d.subscriptionName)).toEqual(['loop', 'outside'])
    expect(all[0]).toMatchObject({ status: 'succeeded', eventId: loopEventId, eventType: 'order.paid', attempts: 1, lastStatusCode: 200, simulationId: null })
    expect(all[1]?.status).toMatch(/^(retrying|pending)$/)
    expect(all[1]?.endpointId).toBeNull()
    expect((await deliveries('--subscription', 'outside')).map((d) => d.subscriptionName)).toEqual(['outside'])
    expect((await deliveries('--subscription', all[0]!.subscriptionId)).map((d) => d.subscriptionName)).toEqual(['loop'])
    expect((await deliveries('--endpoint', 'shop')).map((d) => d.subscriptionName)).toEqual(['loop'])
    expect((await deliveries('--status', 'succeeded')).map((d) => d.subscriptionName)).toEqual(['loop'])
    expect((await deliveries('--status', 'failed'))).toEqual([])
    expect((await deliveries('--event-id', loopEventId.slice(0, 8).toUpperCase())).map((d) => d.eventId)).toEqual([loopEventId])
    expect((await deliveries('--since', '2h')).map((d) => d.subscriptionName)).toEqual(['loop'])
    const table = await runCli(['deliveries', '--data', dir, '--status', 'succeeded'])
    expect(table.stdout.split('\n')[1]).toMatch(new RegExp(`^${all[0]!.id}\\s+\\S+Z\\s+loop\\s+${loopEventId}\\s+-\\s+order\\.paid\\s+succeeded\\s+1\\s+200\\s+wall$`))
    const bad = await runCli(['deliveries', '--data', dir, '--status', 'received'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/deliveries: --status "received" is not one of pending, retrying, succeeded, failed/)
    const unknown = await runCli(['deliveries', '--data', dir, '--subscription', 'nobody'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/deliveries: no subscription "nobody" \(name or id\)/)
  })
})

interface Har {
  log: { entries: Array<{ request: { url: string } }> }
}

describe('hookloop export with filters', () => {
  it('says how to select something when nothing is', async () => {
    const result = await runCli(['export', '--data', dir, '--format', 'har'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/export: select something: --requests and\/or --deliveries ids \(hookloop requests and hookloop deliveries list them\), filters such as --endpoint or --since, or --all/)
  })

  it('takes the ids a shell pipes from `hookloop requests --json`', () => {
    const parse = `let t='';process.stdin.on('data',c=>t+=c).on('end',()=>process.stdout.write(JSON.parse(t).requests.map(r=>r.id).join(',')))`
    const script = `set -euo pipefail
ids=$(node "$CLI" requests --data "$DATA" --endpoint shop --json | node -e "$PARSE")
node "$CLI" export --data "$DATA" --format har --requests "$ids"`
    const out = execFileSync('bash', ['-c', script], { cwd: REPO_ROOT, env: { ...process.env, CLI: CLI_PATH, DATA: dir, PARSE: parse }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    const har = JSON.parse(out) as Har
    expect(har.log.entries).toHaveLength(4)
    expect(har.log.entries.every((e) => new URL(e.request.url).pathname === '/h/shop')).toBe(true)
  })

  it('exports --all, or what the filters select, with nothing on stderr when it is not a terminal', async () => {
    const all = await runCli(['export', '--data', dir, '--format', 'case', '--all'])
    expect(all.code).toBe(0)
    expect(all.stderr).toBe('')
    const caseFile = JSON.parse(all.stdout) as { requests: unknown[]; deliveries: unknown[] }
    expect(caseFile.requests).toHaveLength(7)
    expect(caseFile.deliveries).toHaveLength(2)

    const out = join(temp.dir, 'dups.har')
    const dups = await runCli(['export', '--data', dir, '--format', 'har', '--status', 'duplicate,invalid', '--out', out, '--json'])
    expect(dups.stderr).toBe('')
    expect(dups.code).toBe(0)
    const written = JSON.parse(dups.stdout) as { out: string; format: string; requests: number[]; deliveries: number[] }
    expect(written).toMatchObject({ out, format: 'har', deliveries: [] })
    expect(written.requests).toEqual((await requests('--status', 'duplicate,invalid')).map((r) => r.id).reverse())

    const bySubscription = await runCli(['export', '--data', dir, '--format', 'case', '--subscription', 'loop'])
    expect(bySubscription.code).toBe(0)
    const loopCase = JSON.parse(bySubscription.stdout) as { requests: unknown[]; deliveries: unknown[] }
    expect(loopCase.deliveries).toHaveLength(1)

    const none = await runCli(['export', '--data', dir, '--format', 'har', '--since', new Date(Date.now() + HOUR).toISOString()])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/export: nothing in .* matches the filters/)
    const both = await runCli(['export', '--data', dir, '--format', 'har', '--all', '--endpoint', 'shop'])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/export: --all takes everything; leave out the filters/)
  })

  it('draws its progress on stderr when that is a terminal, and clears it', () => {
    // script(1) gives the command a pseudo-terminal, as a person's shell would.
    const out = join(temp.dir, 'all-tty.json')
    const printed = execFileSync('script', ['-qec', `"${process.execPath}" "${CLI_PATH}" export --data "${dir}" --format case --all --out "${out}"`, '/dev/null'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    expect(printed).toContain('\r\x1b[2Kexport: 9/9 rows read')
    // The progress line is cleared, then what was written is said on its own line.
    expect(printed).toContain(`\r\x1b[2Kwrote ${out} (case file)`)
    expect((JSON.parse(readFileSync(out, 'utf8')) as { requests: unknown[] }).requests).toHaveLength(7)
  })
})
