// `hookloop resend` as a real process against a data folder, sending to a real app that verifies
// with the official Standard Webhooks library: as it was, edited and re-signed, edited and broken.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { startHarness, type Harness } from '../receiver/support'
import { downPort, post, signedHeaders, startVerifyingApp, stopAll, type App } from '../../support/forward-apps'

const secret = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')

describe('hookloop resend', () => {
  let h: Harness
  let app: App
  afterEach(() => stopAll(h, app))

  async function captured(): Promise<{ id: number; data: string }> {
    app = await startVerifyingApp(secret)
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'sw', scheme: 'standard-webhooks', secrets: [secret] })
    await h.receiver.endpoints.create({ slug: 'plain' })
    const body = '{"type":"invoice.paid","data":{"id":1}}'
    await post(`${h.receiver.url}/h/sw`, body, signedHeaders(secret, 'msg_9', body))
    await post(`${h.receiver.url}/h/plain`, '{}')
    const id = h.receiver.requests.list().find((r) => r.path === '/h/sw')?.id ?? -1
    return { id, data: dirname(h.file) }
  }

  it('sends as it was, re-signed after an edit, and broken; prints each leg and stores it', async () => {
    const { id, data } = await captured()
    const edited = join(data, 'edited.json')
    writeFileSync(edited, '{"type":"invoice.paid","data":{"id":2}}')
    const to = `${app.url}/hook`
    const asIs = await runCli(['resend', String(id), '--to', to, '--data', data])
    const resigned = await runCli(['resend', String(id), '--to', to, '--resign', '--body-file', edited, '--data', data])
    const broken = await runCli(['resend', String(id), '--to', to, '--broken', '--body-file', edited, '--header', 'X-Note: edited', '--data', data, '--json'])
    expect([asIs.code, resigned.code, broken.code]).toEqual([0, 0, 0])
    expect(asIs.stdout).toMatch(new RegExp(`^POST ${to}  as-is  status=200  \\d+ms  outcome=answered  \\(your app answered 200 in \\d+ ms; leg \\d+ of request ${id}\\)`))
    expect(resigned.stdout).toMatch(/ resign {2}status=200 /)
    expect(JSON.parse(broken.stdout)).toMatchObject({ kind: 'resend', requestId: id, outcome: 'answered', response: { status: 401, body: 'invalid' } })
    // What the app saw: the same message id each time; the edited bodies; the extra header.
    expect(app.seen.map((r) => [r.headers['webhook-id'], r.body.toString()])).toEqual([
      ['msg_9', '{"type":"invoice.paid","data":{"id":1}}'],
      ['msg_9', '{"type":"invoice.paid","data":{"id":2}}'],
      ['msg_9', '{"type":"invoice.paid","data":{"id":2}}'],
    ])
    expect(app.seen[2]?.headers['x-note']).toBe('edited')
    // Each resend is in the audit: local, from the CLI, naming the request, the mode and the leg.
    const audit = JSON.parse((await runCli(['audit', '--data', data, '--json'])).stdout) as { audit: { actor: string; via: string; command: string; target: unknown; detail: Record<string, unknown> }[] }
    expect(audit.audit.map((e) => [e.actor, e.via, e.command, e.target, e.detail.mode])).toEqual([
      ['local', 'cli', 'request.resend', { kind: 'request', id: String(id) }, 'broken'],
      ['local', 'cli', 'request.resend', { kind: 'request', id: String(id) }, 'resign'],
      ['local', 'cli', 'request.resend', { kind: 'request', id: String(id) }, 'as-is'],
    ])
    expect(audit.audit[0]?.detail).toMatchObject({ to, bodyEdited: true, headers: [['X-Note', 'edited']], outcome: 'answered' })
    // Stored beside the request, read by the running receiver: and its own legs, numbered after
    // the ones the CLI wrote meanwhile, are not lost.
    await h.receiver.resend(id, { to, mode: 'as-is' })
    const legs = h.receiver.forwards.list(id)
    expect(legs.map((l) => [l.kind, l.response.status])).toEqual([
      ['resend', 200],
      ['resend', 200],
      ['resend', 401],
      ['resend', 200],
    ])
    expect(new Set(legs.map((l) => l.id)).size).toBe(4)
  })

  it('clear errors: an unknown request, a bad URL, nothing to re-sign with, an edit sent as-is; a target that is down exits 1', async () => {
    const { id, data } = await captured()
    const plainId = h.receiver.requests.list().find((r) => r.path === '/h/plain')?.id ?? -1
    const unknown = await runCli(['resend', '999', '--to', app.url, '--data', data])
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'hookloop: resend: REQUEST_ID: no captured request with id 999 in this data folder'])
    const badUrl = await runCli(['resend', String(id), '--to', 'ftp://127.0.0.1/x', '--data', data])
    expect([badUrl.code, badUrl.stderr]).toEqual([2, expect.stringMatching(/resend: --to: a forward target must be http:\/\/ or https:\/\//)])
    const noSecret = await runCli(['resend', String(plainId), '--to', app.url, '--resign', '--header', 'X-A: 1', '--data', data])
    expect([noSecret.code, noSecret.stderr]).toEqual([2, expect.stringMatching(/resend: --resign: re-signing needs the endpoint's scheme and a secret/)])
    const editedAsIs = await runCli(['resend', String(id), '--to', app.url, '--header', 'X-A: 1', '--data', data])
    expect([editedAsIs.code, editedAsIs.stderr]).toEqual([2, expect.stringMatching(/--resign \(signed again\) or --broken/)])
    const badHeader = await runCli(['resend', String(id), '--to', app.url, '--broken', '--header', 'no colon', '--data', data])
    expect([badHeader.code, badHeader.stderr]).toEqual([2, expect.stringMatching(/--header takes 'Name: value'/)])
    const noData = await runCli(['resend', String(id), '--to', app.url, '--data', join(data, 'nowhere')])
    expect([noData.code, noData.stderr]).toEqual([2, expect.stringMatching(/no Hookloop data in/)])
    expect(app.seen).toHaveLength(0)

    const down = await runCli(['resend', String(id), '--to', `http://127.0.0.1:${await downPort()}/`, '--data', data])
    expect(down.code).toBe(1)
    expect(down.stdout).toMatch(/status=- .* outcome=refused {2}\(your app is down: connection refused \(ECONNREFUSED\)/)
    expect(h.receiver.forwards.list(id).map((l) => l.outcome)).toEqual(['refused'])
  })
})
