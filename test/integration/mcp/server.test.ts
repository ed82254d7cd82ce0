// `hookloop mcp --server URL` from the built CLI, driven by the official SDK's client over stdio,
// against a real `hookloop serve --accounts` with traffic in it: its read tools answer with the
// text `hookloop mcp --data` gives on the server's data folder (list_held too, with a request held
// at the server's breakpoint); the rule and held-request tools go through the server's commands,
// an editor's token adds and removes a rule and releases a held request, a viewer's is refused with
// the role it needs; explain_signature and trigger_event to an endpoint, which need its signing
// secret, run on the server (request.explainSignature, endpoint.trigger) and answer as the folder
// does; a missing or wrong token ends the server at once with one line that never holds the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { cliEnv, startServedHookloop, type ServedHookloop } from '../../support/served-hookloop'
import { startMcp, type McpSession } from './support'

let served: ServedHookloop
let folder: McpSession
let viewer: McpSession
let editor: McpSession
let viewerToken = ''
let editorToken = ''
/** The session's environment: the token in $HOOKLOOP_TOKEN, no store or server of the test's own. */
const tokenEnv = (token: string) => ({ HOOKLOOP_STORE: '', HOOKLOOP_SERVER: '', HOOKLOOP_TOKEN: token })

beforeAll(async () => {
  served = await startServedHookloop()
  viewerToken = await served.token('viewer')
  folder = await startMcp(['--data', served.dir, '--allow-changes'], tokenEnv(''))
  viewer = await startMcp(['--server', served.origin, '--allow-changes'], tokenEnv(viewerToken))
  editorToken = await served.token('editor')
  editor = await startMcp(['--server', served.origin, '--allow-changes'], tokenEnv(editorToken))
}, 180_000)

afterAll(async () => {
  for (const session of [folder, viewer, editor]) await session?.close()
  served?.close()
})

const storedRequestIds = async () => (JSON.parse((await runCli(['requests', '--data', served.dir, '--json'], cliEnv())).stdout) as { requests: { id: number }[] }).requests.map((r) => r.id)

/** Where each one reads is said in list_endpoints; the rest is compared as written. */
const placeless = (text: string, where: string) => text.replaceAll(where, 'WHERE')

describe('hookloop mcp --server', () => {
  it('answers the read tools with the text the data folder gives', async () => {
    // A request from outside beside the loop's own, unsigned: a received row of its own.
    const listed = await folder.json<{ endpoints: { slug: string; url: string }[] }>('list_endpoints')
    const posted = await fetch(listed.endpoints.find((e) => e.slug === served.slug)!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"evt_outside","type":"ping"}' })
    await posted.arrayBuffer()
    const rows = await folder.json<{ rows: { kind: string; deliveryId?: number; requestIds?: number[] }[] }>('list_rows')
    expect(rows.rows.some((r) => r.kind !== 'delivery')).toBe(true)
    const requestIds = await storedRequestIds()
    const deliveryIds = rows.rows.flatMap((r) => (r.deliveryId === undefined ? [] : [r.deliveryId]))
    expect(requestIds.length).toBeGreaterThanOrEqual(1)
    expect(deliveryIds.length).toBeGreaterThanOrEqual(1)
    const calls: [string, Record<string, unknown>][] = [
      ['list_endpoints', {}],
      ['list_rows', {}],
      ['list_rows', { endpoint: served.slug }],
      ['list_rows', { status: 'succeeded', limit: 5 }],
      ...requestIds.map((id): [string, Record<string, unknown>] => ['show_request', { id }]),
      ...deliveryIds.map((id): [string, Record<string, unknown>] => ['show_delivery', { id }]),
      ['show_request', { id: 999_999 }],
      ['list_rows', { endpoint: 'no-such-endpoint' }],
    ]
    for (const [tool, args] of calls) {
      const local = await folder.call(tool, args)
      const remote = await viewer.call(tool, args)
      expect(remote.isError, `${tool} ${JSON.stringify(args)}: ${remote.text}`).toBe(local.isError)
      expect(placeless(remote.text, served.origin), `${tool} ${JSON.stringify(args)}`).toBe(placeless(local.text, served.dir))
    }
    // The endpoint's secrets are shown as hints only, through either.
    const endpoints = await viewer.json<{ endpoints: { slug: string; secretHints: string[] }[] }>('list_endpoints')
    expect(endpoints.endpoints.find((e) => e.slug === served.slug)?.secretHints.length).toBeGreaterThan(0)
  }, 300_000)

  it('changes rules through the server for an editor’s token, and a viewer’s gets the role it needs', async () => {
    const refused = await viewer.call('add_fault_rule', { endpoint: served.slug, preset: 'always-500' })
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/^add_fault_rule: http:\/\/127\.0\.0\.1:\d+: rule\.addPreset needs the editor role; the token "viewer bot \d+" is a viewer$/)

    const added = await editor.json<{ rule: { id: string; endpoint: string; name: string | null; enabled: boolean; explain: string } }>('add_fault_rule', { endpoint: served.slug, preset: 'always-500', name: 'outage' })
    expect(added.rule).toMatchObject({ endpoint: served.slug, name: 'outage', enabled: true })
    // The server keeps it: the folder's MCP reads it as the server's MCP does.
    const listed = (session: McpSession) => session.json<{ endpoints: { slug: string; rules: { id: string; name: string | null; explain: string }[] }[] }>('list_endpoints')
    for (const session of [folder, viewer]) {
      expect((await listed(session)).endpoints.find((e) => e.slug === served.slug)?.rules).toContainEqual({ id: added.rule.id, name: 'outage', enabled: true, explain: added.rule.explain })
    }

    const notRemoved = await viewer.call('remove_fault_rule', { ruleId: added.rule.id })
    expect(notRemoved.text).toMatch(/^remove_fault_rule: http:\/\/127\.0\.0\.1:\d+: rule\.delete needs the editor role; the token "viewer bot \d+" is a viewer$/)
    const removed = await editor.json<{ removed: { id: string; endpoint: string; explain: string } }>('remove_fault_rule', { ruleId: added.rule.id })
    expect(removed.removed).toEqual({ id: added.rule.id, endpoint: served.slug, explain: added.rule.explain })
    expect((await listed(folder)).endpoints.find((e) => e.slug === served.slug)?.rules.map((r) => r.id)).not.toContain(added.rule.id)
    expect(await editor.call('remove_fault_rule', { ruleId: added.rule.id })).toEqual({ isError: true, text: `remove_fault_rule: no rule "${added.rule.id}" in ${served.origin} (list_endpoints lists the rules of each endpoint)` })
  }, 300_000)

  it('lists the requests held at the server’s breakpoint as the folder does, and releases one for an editor’s token only', async () => {
    const endpoint = (await folder.json<{ endpoints: { id: string; slug: string; url: string }[] }>('list_endpoints')).endpoints.find((e) => e.slug === served.slug)!
    const put = await served.command(editorToken, 'breakpoint.put', { breakpoint: { endpointId: endpoint.id, limitMs: 600_000 } })
    expect(put.ok, JSON.stringify(put.error)).toBe(true)
    const answered = fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"evt_held","type":"ping"}' })
    let held = await viewer.json<{ held: { requestId: number }[] }>('list_held')
    while (held.held.length === 0) {
      await new Promise((r) => setTimeout(r, 100))
      held = await viewer.json('list_held')
    }
    const requestId = held.held[0]!.requestId
    /** The answers without the moment each was made. */
    const timeless = (text: string) => text.replace(/"now": \d+/, '"now": 0')
    expect(timeless((await viewer.call('list_held')).text)).toBe(timeless((await folder.call('list_held')).text))

    const refused = await viewer.call('release_held', { requestId })
    expect(refused.text).toMatch(/^release_held: http:\/\/127\.0\.0\.1:\d+: held\.release needs the editor role; the token "viewer bot \d+" is a viewer$/)
    expect(await editor.json('release_held', { requestId })).toEqual({ requestId, done: `released; show_request ${requestId} shows what it was answered` })
    // It went on to the endpoint's rules, whose answer the sender got and the server kept.
    const status = (await answered).status
    expect((await editor.json<{ response: { status: number } }>('show_request', { id: requestId })).response.status).toBe(status)
    expect(await editor.call('drop_held', { requestId })).toEqual({ isError: true, text: `drop_held: request #${requestId} is not held in ${served.origin} (list_held lists the requests held now)` })
    const bp = (put.res as { id: string }).id
    expect((await served.command(editorToken, 'breakpoint.remove', { id: bp })).ok).toBe(true)
  }, 300_000)

  it('explains signatures and triggers an event on the server for an editor’s token as the folder does; a viewer’s trigger gets the role it needs', async () => {
    // Signed and unsigned requests, and one that is not there: the same text through either.
    for (const requestId of [...(await storedRequestIds()), 999_999]) {
      const local = await folder.call('explain_signature', { requestId })
      const remote = await editor.call('explain_signature', { requestId })
      expect(remote.isError, `explain_signature ${requestId}: ${remote.text}`).toBe(local.isError)
      expect(placeless(remote.text, served.origin), `explain_signature ${requestId}`).toBe(placeless(local.text, served.dir))
    }

    const args = { provider: 'standard-webhooks', eventType: 'user.created', endpoint: served.slug }
    const refused = await viewer.call('trigger_event', args)
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/^trigger_event: http:\/\/127\.0\.0\.1:\d+: endpoint\.trigger needs the editor role; the token "viewer bot \d+" is a viewer$/)

    type Triggered = { eventId: string; providerEventId: string | null; clockMs: number; body: string; attempts: Record<string, unknown>[] } & Record<string, unknown>
    /**
     * What differs between two deliveries of one event: its ids, its body's made-up values, the
     * attempts' ids and times, and how many attempts it took (the endpoint's rule fails its first
     * requests, however they came): the last attempt is compared.
     */
    const settled = ({ eventId: _e, providerEventId: _p, clockMs: _c, body: _b, attempts, ...rest }: Triggered) => ({
      ...rest,
      attempts: attempts.slice(-1).map(({ id: _i, deliveryId: _d, eventId: _ev, n: _n, startedAt: _s, durationMs: _du, ...attempt }) => attempt),
    })
    const before = new Set(await storedRequestIds())
    const local = await folder.json<Triggered>('trigger_event', args)
    const remote = await editor.json<Triggered>('trigger_event', args)
    expect(remote.status).toBe('succeeded')
    expect(settled(remote)).toEqual(settled(local))
    // Every attempt arrived at the server's endpoint, signed with its secret: each one's verdict is valid.
    const arrived = (await storedRequestIds()).filter((id) => !before.has(id))
    expect(arrived).toHaveLength(local.attempts.length + remote.attempts.length)
    for (const requestId of arrived) {
      const explained = await editor.json<{ endpoint: { slug: string }; stored: { valid: boolean } }>('explain_signature', { requestId })
      expect([explained.endpoint.slug, explained.stored.valid]).toEqual([served.slug, true])
    }
    const shown = await viewer.json<{ body: { text: string } }>('show_request', { id: Math.max(...arrived) })
    expect(shown.body.text).toBe(remote.body)
  }, 300_000)

  it('ends at once for a missing or wrong token', async () => {
    const wrongToken = `hlk_${'x'.repeat(43)}`
    const wrong = await runCli(['mcp', '--server', served.origin], cliEnv({ HOOKLOOP_TOKEN: wrongToken }))
    expect([wrong.code, wrong.stdout, wrong.stderr]).toEqual([1, '', `hookloop mcp: ${served.origin} refused the API token (401): check $HOOKLOOP_TOKEN; a revoked token is refused\n`])
    const missing = await runCli(['mcp', '--server', served.origin], cliEnv())
    expect([missing.code, missing.stdout]).toEqual([2, ''])
    expect(missing.stderr.trim().split('\n')).toEqual([`hookloop: mcp: --server ${served.origin} needs an API token: $HOOKLOOP_TOKEN (or --token); an admin makes one with \`hookloop token create\` or in the app's Tokens panel`])
    for (const text of [wrong.stderr, missing.stderr, viewer.stderr, editor.stderr, ...viewer.texts, ...editor.texts]) {
      expect(text).not.toContain(wrongToken)
      expect(text).not.toContain(viewerToken)
    }
  }, 300_000)
})
