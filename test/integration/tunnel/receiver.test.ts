import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver, type Receiver } from '../../../electron/engine/receiver'
import { sign } from '../../../electron/engine/signatures'
import { openDatabase } from '../../../electron/engine/store'
import { createTunnelManager, type TunnelManager } from '../../../electron/engine/tunnel'
import { createTunnelServer } from '../../support/tunnel-server'
import { makeTempDir } from '../../support/temp-dir'
import { useCleanups } from './fixture'
import { sendToPublicUrl, waitForState, waitUntil } from './support'

const cleanup = useCleanups()

describe('tunnel in front of the Hookloop receiver', () => {
  it('delivers a URL-signed webhook sent to the public URL; the receiver captures it and verifies it against publicUrl()', async () => {
    const server = await createTunnelServer()
    cleanup(() => server.stop())
    const temp = makeTempDir('hookloop-tunnel-')
    const db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
    cleanup(() => {
      db.close()
      temp.cleanup()
    })
    // The receiver asks the manager for the public URL; the manager needs the receiver's port.
    const tunnel: { manager?: TunnelManager } = {}
    const receiver: Receiver = await createReceiver({ db, clock: createRealClock(), publicUrl: () => tunnel.manager?.publicUrl() })
    cleanup(() => receiver.close())
    const manager = createTunnelManager({ localPort: receiver.port, host: server.url, requestTimeoutMs: 2000 })
    tunnel.manager = manager
    cleanup(() => manager.stop())
    const secret = 'square-signature-key'
    receiver.endpoints.create({ slug: 'square', scheme: 'square', secrets: [secret] })

    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online')
    const publicUrl = manager.publicUrl() ?? ''
    const path = '/h/square'
    const body = Buffer.from(JSON.stringify({ merchant_id: 'M1', type: 'payment.created', event_id: 'd2b7c3e4-0f5a-4b6c-9d7e-8f9a0b1c2d3e' }))
    // Square signs the URL the provider posts to, so this verifies only with the public URL known.
    const headers = sign('square', { body, secret, url: `${publicUrl}${path}` })
    const answer = await sendToPublicUrl(publicUrl, path, { body: body.toString(), headers: { 'content-type': 'application/json', ...headers } })
    expect(answer.status).toBeLessThan(300)

    await waitUntil(() => {
      receiver.requests.flush()
      return receiver.requests.count() === 1
    }, 'the receiver to capture the webhook')
    const [record] = receiver.requests.list()
    expect(record?.path).toBe(path)
    expect(Buffer.from(record?.body ?? []).equals(body)).toBe(true)
    expect(record?.verify).toMatchObject({ scheme: 'square', valid: true, reason: 'ok' })
    // Health checks went through the same public URL but were never captured.
    expect(receiver.requests.count()).toBe(1)
  })
})
