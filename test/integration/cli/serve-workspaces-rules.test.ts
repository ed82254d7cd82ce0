// Rules and breakpoints for every endpoint on `hookloop serve --accounts` from the build, on a data
// folder and a team's PostgreSQL: each belongs to a workspace and acts on that workspace's
// endpoints only. default's rule for every endpoint (written by another process on the store) and
// default's breakpoint for every endpoint leave Payments' endpoint alone; Payments' own breakpoint
// for every endpoint holds its endpoint and not default's, and each workspace lists only its own.
import { afterEach, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { createRuleStore, createWorkspaceStore, openStore, parseStoreLocation, type SqlEngine } from '../../../electron/engine/store'
import { parseRuleOrPreset } from '../../../shared/receiver'
import { command, servedStores, servedWithAdmin, signIn } from '../../support/accounts-serve'
import { usePostgres } from '../../support/use-postgres'

const PASSWORD = 'correct horse battery'
const cleanups: (() => void)[] = []
const postgres = usePostgres()
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

const closed = (ws: WebSocket): Promise<void> => new Promise((done) => ws.once('close', () => done()))

describe.each(Object.entries(servedStores(postgres, cleanups)))('rules and breakpoints for every endpoint of hookloop serve --accounts on %s', (_kind, storeOf) => {
  it("act on their own workspace's endpoints only, and are listed to that workspace only", async () => {
    const { store, serve, open } = await servedWithAdmin(storeOf, PASSWORD, cleanups)

    // Ada in default, and Ada again (a second session) in Payments.
    const inDefault = await open(await signIn(serve.origin, 'ada@example.com', PASSWORD))
    const payments = (await command(inDefault, 'workspace.create', { name: 'Payments' })).res as { id: string }
    const paySession = await signIn(serve.origin, 'ada@example.com', PASSWORD)
    const moving = await open(paySession)
    const moved = closed(moving)
    expect((await command(moving, 'workspace.switch', { id: payments.id })).ok).toBe(true)
    await moved
    const inPayments = await open(paySession)

    const shop = (await command(inDefault, 'endpoint.create', { name: 'Shop', scheme: null, secrets: [], dedupe: null })).res as { id: string; slug: string }
    const pay = (await command(inPayments, 'endpoint.create', { name: 'Pay', scheme: null, secrets: [], dedupe: null })).res as { id: string; slug: string }
    const { receiverUrl } = (await command(inDefault, 'snapshot')).res as { receiverUrl: string }
    const post = async (slug: string, headers: Record<string, string> = {}) => (await fetch(`${receiverUrl}/h/${slug}`, { method: 'POST', headers, body: '{}' })).status

    // default's rule for every endpoint, written by another process on the store (a rule for every
    // endpoint is made through the receiver, not a command), and one of Payments' beside it.
    const beside = await openStore(parseStoreLocation(store.env.HOOKLOOP_STORE ?? store.args[1] ?? ''), { notice: () => undefined, withoutSecrets: true })
    const rules = createRuleStore(beside.engine as SqlEngine)
    await rules.insert({ id: 'every-500', endpointId: null, position: 0, enabled: true, rule: parseRuleOrPreset({ preset: 'always-500' }), createdAt: 1 })
    await rules.insert({ id: 'every-410', endpointId: null, position: 0, enabled: true, rule: parseRuleOrPreset({ preset: 'always-410' }), createdAt: 1, workspaceId: payments.id })
    expect(await createWorkspaceStore(beside.engine).ownerOf('rule', 'every-410')).toBe(payments.id)
    expect(await createWorkspaceStore(beside.engine).ownerOf('rule', 'every-500')).toBe('default')
    await beside.engine.close()

    // The server reads the rules again (its definitions watch): default's answers default's endpoint.
    while ((await post(shop.slug)) !== 500) await new Promise((done) => setTimeout(done, 50))
    // Payments' endpoint is answered by Payments' rule, never by default's; nor is default's by Payments'.
    expect(await post(pay.slug)).toBe(410)
    expect(await post(shop.slug)).toBe(500)
    // Each workspace lists its own.
    expect(((await command(inDefault, 'snapshot')).res.rules as { id: string }[]).map((r) => r.id)).toEqual(['every-500'])
    expect(((await command(inPayments, 'snapshot')).res.rules as { id: string }[]).map((r) => r.id)).toEqual(['every-410'])
    // A rule of the other workspace reads as one that does not exist.
    expect((await command(inPayments, 'rule.setEnabled', { id: 'every-500', enabled: false })).error).toEqual({ code: 'not_found', message: 'rule every-500 does not exist' })
    expect((await command(inDefault, 'rule.setEnabled', { id: 'every-410', enabled: false })).error).toEqual({ code: 'not_found', message: 'rule every-410 does not exist' })
    // Off, so the breakpoints below answer by what they decide alone.
    expect((await command(inDefault, 'rule.delete', { id: 'every-500' })).ok).toBe(true)
    expect((await command(inPayments, 'rule.delete', { id: 'every-410' })).ok).toBe(true)

    // A breakpoint for every endpoint, one in each workspace, each answering by its own status when its limit runs out.
    const put = (ws: WebSocket, header: string, status: number) => command(ws, 'breakpoint.put', { breakpoint: { matchers: [{ type: 'header', name: header }], limitMs: 100, onExpiry: { action: 'answer', status } } })
    expect((await put(inDefault, 'x-hold', 418)).ok).toBe(true)
    const paysBreakpoint = await put(inPayments, 'x-hold', 423)
    expect(paysBreakpoint.error).toBeUndefined()
    // default's holds default's endpoint and not Payments', and Payments' holds Payments' only.
    expect(await post(shop.slug, { 'x-hold': '1' })).toBe(418)
    expect(await post(pay.slug, { 'x-hold': '1' })).toBe(423)
    const listed = async (ws: WebSocket) => ((await command(ws, 'breakpoint.list')).res.breakpoints as { id: string }[]).map((b) => b.id)
    expect(await listed(inPayments)).toEqual([paysBreakpoint.res.id])
    expect(await listed(inDefault)).not.toContain(paysBreakpoint.res.id)
    expect(((await command(inPayments, 'snapshot')).res.breakpoints.breakpoints as { id: string }[]).map((b) => b.id)).toEqual([paysBreakpoint.res.id])
    // Nor is its id default's to replace.
    expect((await command(inDefault, 'breakpoint.put', { breakpoint: { id: paysBreakpoint.res.id, matchers: [] } })).error).toEqual({
      code: 'conflict',
      message: `breakpoint.put: the id "${paysBreakpoint.res.id}" is taken: leave the id out to make a new breakpoint`,
    })
    // Another workspace's breakpoint is not there to remove.
    expect((await command(inDefault, 'breakpoint.remove', { id: paysBreakpoint.res.id })).error?.code).toBe('not_found')
    expect((await command(inPayments, 'breakpoint.remove', { id: paysBreakpoint.res.id })).ok).toBe(true)
    expect(await post(pay.slug, { 'x-hold': '1' })).toBe(200)
  })
})
