// Two `hookloop serve --accounts` processes from the build on one team PostgreSQL: a member
// disabled by an admin on A loses what they hold on B, their open socket closed (each process
// checks its sessions' sockets every second, all in one read) and their next call refused (401).
// Waits are bounded generously; no time is asserted.
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { SIGNED_OUT_CLOSE_CODE } from '../../../shared/contract'
import { command, sessionSocket, signIn, startAccountsServe, tryJoin } from '../../support/accounts-serve'
import { usePostgres } from '../../support/use-postgres'

const PASSWORD = 'correct horse battery'
const postgres = usePostgres()
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

describe('hookloop serve --accounts, two processes on one team PostgreSQL', () => {
  it("closes a disabled member's socket on the other process, and refuses their next call there", async () => {
    const env = { HOOKLOOP_STORE: await postgres.freshDatabase(), HOOKLOOP_SECRET_KEY: randomBytes(32).toString('base64'), HOOKLOOP_ADMIN_PASSWORD: PASSWORD }
    const a = await startAccountsServe(['--admin', 'ada@example.com'], env)
    cleanups.push(a.stop)
    const b = await startAccountsServe([], env)
    cleanups.push(b.stop)

    const admin = await sessionSocket(a.origin, await signIn(a.origin, 'ada@example.com', PASSWORD))
    cleanups.push(() => admin.terminate())
    const invite = await command(admin, 'member.invite', { role: 'editor' })
    expect((await tryJoin(invite.res.link as string, { email: 'edna@example.com', password: PASSWORD })).status).toBe(303)

    // Edna works on B: signed in there, her socket open, her commands answered.
    const session = await signIn(b.origin, 'edna@example.com', PASSWORD)
    const edna = await sessionSocket(b.origin, session)
    cleanups.push(() => edna.terminate())
    expect((await command(edna, 'snapshot')).ok).toBe(true)
    expect((await fetch(`${b.origin}/account/me`, { headers: { cookie: session } })).status).toBe(200)
    const closed = new Promise<{ code: number; reason: string }>((done) => edna.once('close', (code, reason) => done({ code, reason: reason.toString() })))

    const members = await command(admin, 'member.list')
    const id = (members.res.members as { id: string; email: string }[]).find((m) => m.email === 'edna@example.com')?.id
    expect((await command(admin, 'member.setDisabled', { id, disabled: true })).ok).toBe(true)

    // B closes her quiet socket by itself: she sends nothing after the disable.
    const bound = new Promise<'still open'>((done) => setTimeout(() => done('still open'), 15_000).unref())
    expect(await Promise.race([closed, bound])).toEqual({ code: SIGNED_OUT_CLOSE_CODE, reason: 'signed out' })
    expect(edna.readyState).toBe(WebSocket.CLOSED)
    const me = await fetch(`${b.origin}/account/me`, { headers: { cookie: session } })
    expect([me.status, await me.text()]).toEqual([401, 'not signed in\n'])
    // And a socket with the same cookie is not opened again.
    await expect(sessionSocket(b.origin, session)).rejects.toThrow('the socket was refused: 401')
  })
})
