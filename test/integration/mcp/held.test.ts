// Held requests through `hookloop mcp` (the built CLI, spoken to by the MCP SDK's client), while
// another process's receiver on the same data folder holds them: list_held shows each with its
// whole content, release_held (edited) and drop_held are acted on by the holding process, and
// both refuse without --allow-changes.
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../receiver/support'
import { post } from '../../support/forward-apps'
import { startMcp, type McpSession } from './support'
import { dirname } from 'node:path'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

async function mcp(args: string[]): Promise<McpSession> {
  const session = await startMcp(args)
  cleanups.push(() => session.close())
  return session
}

describe('held requests through hookloop mcp', () => {
  it('lists what another process holds, releases one edited and drops another; refuses read-only', async () => {
    const h: Harness = await startHarness()
    cleanups.push(() => h.stop())
    await h.receiver.endpoints.create({ slug: 'pay' })
    h.receiver.breakpoints.put({ limitMs: 60_000 })
    const first = post(`${h.receiver.url}/h/pay`, '{"amount":100}')
    const held = await h.waitFor('breakpoint.held')
    const id = held.request.requestId

    const readOnly = await mcp(['--data', dirname(h.file)])
    expect((await readOnly.json<{ held: { requestId: number; body: string }[] }>('list_held')).held).toMatchObject([{ requestId: id, body: '{"amount":100}' }])
    const refused = await readOnly.call('release_held', { requestId: id })
    expect(refused).toMatchObject({ isError: true })
    expect(refused.text).toMatch(/--allow-changes/)

    const agent = await mcp(['--data', dirname(h.file), '--allow-changes'])
    const status = await agent.call('release_held', { requestId: id, edit: { status: 500, resign: true } })
    expect(status.isError).toBe(true)
    expect(status.text).toMatch(/refused: edit.resign: re-signing needs/)
    const released = await agent.json<{ done: string }>('release_held', { requestId: id, edit: { body: '{"amount":5}', status: 202 } })
    expect(released.done).toMatch(/^edited and released/)
    expect(await first).toMatchObject({ status: 202 })
    await h.waitFor('request.responded', (e) => e.requestId === id)
    expect(h.receiver.requests.get(id)?.fault?.hold).toMatchObject({ end: 'edited', edit: { body: '{"amount":5}' } })

    const second = post(`${h.receiver.url}/h/pay`, '{}')
    const next = await h.waitFor('breakpoint.held', (e) => e.request.requestId !== id)
    expect((await agent.json<{ done: string }>('drop_held', { requestId: next.request.requestId })).done).toMatch(/^dropped/)
    expect(await second).toHaveProperty('error')
    expect((await agent.json<{ held: unknown[] }>('list_held')).held).toEqual([])
    const gone = await agent.call('answer_held', { requestId: id, answer: { status: 200 } })
    expect(gone.text).toMatch(/is not held/)
  })
})
