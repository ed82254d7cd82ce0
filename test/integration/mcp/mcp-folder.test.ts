// `hookloop mcp` beside the other front doors on one data folder, as an agent's editor starts it:
// its endpoint URLs point at the receiver that is running on the folder (`hookloop serve` on a
// free port), not at listen's default port; and `list_rows` takes `status` as one word or a list,
// as docs/mcp.md writes it.
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { startServe } from '../../e2e/support/serve'
import { makeTempDir } from '../../support/temp-dir'
import { startMcp, type McpSession } from './support'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

async function folderWithAnEndpoint(): Promise<string> {
  const temp = makeTempDir('hookloop-mcp-folder-')
  cleanups.push(temp.cleanup)
  const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'orders' })
    await fetch(engine.receiver.endpointUrl('orders'), { method: 'POST', body: '{"event_id":"evt_1"}' })
    await engine.quiesce()
  } finally {
    await engine.close()
  }
  return temp.dir
}

async function mcp(args: string[]): Promise<McpSession> {
  const session = await startMcp(args)
  cleanups.push(() => session.close())
  return session
}

describe('hookloop mcp on a folder other processes use', () => {
  it("gives endpoint URLs at the receiver `hookloop serve` runs on the folder, and listen's default port when nothing runs", async () => {
    const dir = await folderWithAnEndpoint()
    const served = await startServe([], { dataDir: dir })
    cleanups.push(() => served.stop())
    const session = await mcp(['--data', dir])
    const listed = await session.json<{ receiverUrl: string; endpoints: { url: string }[] }>('list_endpoints')
    expect(listed.receiverUrl).toBe(served.receiverUrl)
    expect(listed.endpoints[0]?.url).toBe(`${served.receiverUrl}/h/orders`)
    expect((await fetch(listed.endpoints[0]!.url, { method: 'POST', body: '{}' })).status).toBe(200)
    await served.stop()
    const after = await session.json<{ receiverUrl: string }>('list_endpoints')
    expect(after.receiverUrl).toBe('http://127.0.0.1:7780')
  })

  it('list_rows takes one status as a word, or several as a list', async () => {
    const dir = await folderWithAnEndpoint()
    const session = await mcp(['--data', dir])
    const one = await session.json<{ rows: { kind: string }[] }>('list_rows', { status: 'received' })
    const many = await session.json<{ rows: { kind: string }[] }>('list_rows', { status: ['received', 'failed'] })
    expect(one.rows.length).toBe(1)
    expect(many.rows.length).toBe(1)
  })
})
