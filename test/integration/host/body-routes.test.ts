// Bodies bigger than a control frame, through the real host: a request of several MB is stored and
// forwarded whole; its detail carries only the start and the stored size; the whole body downloads
// over the control server's HTTP route with the run's token (refused without it); a file uploaded
// there is resent whole, used once; an upload past an endpoint's limit is refused by name.
import { describe, expect, it } from 'vitest'
import { BODY_START_BYTES, BODY_UPLOAD_LIMIT, BODY_UPLOAD_PATH, CONTROL_FRAME_LIMIT, requestBodyPath, TOKEN_HEADER } from '../../../shared/contract'
import { post, startApp } from '../../support/forward-apps'
import { useHostSessions } from './support/session'

const openSession = useHostSessions()

/** Bytes that differ at every offset, so a shifted or cut copy cannot compare equal. */
function pattern(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed + (i >> 8)) & 0xff
  return bytes
}

describe('bodies bigger than a control frame', () => {
  it('shows the start and size, downloads the whole body, resends an uploaded file whole', async () => {
    const { host, call, token } = await openSession()
    const app = await startApp((req, res) => res.writeHead(200).end('ok'))
    try {
      const endpoint = await call('endpoint.create', { name: 'big', scheme: null, secrets: [], dedupe: null, forwardTo: [`${app.url}/in`] })
      const original = pattern(CONTROL_FRAME_LIMIT * 3, 1)
      const answer = await post(endpoint.localUrl, original, { 'content-type': 'application/octet-stream' })
      expect('status' in answer && answer.status).toBe(200)
      expect((await app.received(1)).body.equals(original)).toBe(true)

      await host.engine.quiesce()
      const { rows } = await call('timeline.page', { offset: 0, limit: 10 })
      const id = rows[0]?.marks[0]?.id ?? -1
      const detail = await call('request.get', { id })
      expect(detail.bodySize).toBe(original.length)
      expect(detail.bodyStoredBytes).toBe(original.length)
      expect(Buffer.from(detail.bodyBase64, 'base64').equals(original.subarray(0, BODY_START_BYTES))).toBe(true)
      expect(Buffer.from(detail.legs[0]!.request.bodyBase64, 'base64')).toHaveLength(BODY_START_BYTES)
      expect(detail.legs[0]!.request.bodySize).toBe(original.length)

      const origin = host.control.origin
      const refused = await fetch(`${origin}${requestBodyPath(id)}`)
      expect(refused.status).toBe(401)
      expect(await refused.text()).toContain(TOKEN_HEADER)
      const download = await fetch(`${origin}${requestBodyPath(id)}`, { headers: { [TOKEN_HEADER]: token } })
      expect(download.status).toBe(200)
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="request-${id}.body"`)
      expect(Buffer.from(await download.arrayBuffer()).equals(original)).toBe(true)
      expect((await fetch(`${origin}${requestBodyPath(id + 1000)}`, { headers: { [TOKEN_HEADER]: token } })).status).toBe(404)

      const replacement = pattern(CONTROL_FRAME_LIMIT * 2 + 7, 2)
      const uploaded = await fetch(`${origin}${BODY_UPLOAD_PATH}`, { method: 'POST', body: replacement, headers: { [TOKEN_HEADER]: token } })
      expect(uploaded.status).toBe(200)
      const { upload, size } = (await uploaded.json()) as { upload: string; size: number }
      expect(size).toBe(replacement.length)
      const leg = await call('request.resend', { id, mode: 'broken', bodyUpload: upload })
      expect(leg.request.bodySize).toBe(replacement.length)
      expect((await app.received(2)).body.equals(replacement)).toBe(true)
      // An upload is used once.
      await expect(call('request.resend', { id, mode: 'broken', bodyUpload: upload })).rejects.toThrow(/bodyUpload: no uploaded body .* upload the file again/)
      await expect(call('request.resend', { id, mode: 'broken', body: 'x', bodyUpload: upload })).rejects.toThrow(/bodyUpload: give the new body as body or as bodyUpload, not both/)

      // As it was: the whole stored body again, not the start the detail carried.
      await call('request.resend', { id, mode: 'as-is' })
      expect((await app.received(3)).body.equals(original)).toBe(true)

      const tooBig = await fetch(`${origin}${BODY_UPLOAD_PATH}`, { method: 'POST', body: Buffer.alloc(BODY_UPLOAD_LIMIT + 1), headers: { [TOKEN_HEADER]: token } })
      expect(tooBig.status).toBe(413)
      expect(await tooBig.text()).toContain(`at most ${BODY_UPLOAD_LIMIT} bytes`)
    } finally {
      await app.close()
    }
  })
})
