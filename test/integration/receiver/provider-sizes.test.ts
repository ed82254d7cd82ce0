// The default body limit against what providers send: a 25 MiB GitHub-shaped push reaches an
// endpoint made without a limit whole (byte for byte, its last field read for the dedupe key), and
// a body past the default limit is still refused 413 and recorded. Forward mode and the tunnel
// carry the same body in receiver/forward-large-body.test.ts and tunnel/real-server.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BODY_LIMIT } from '../../../shared/receiver'
import { post } from '../../support/forward-apps'
import { providerSizedBody, sha256 } from '../../support/provider-sized-body'
import { startHarness, type Harness } from './support'

describe('bodies as large as providers send, under the default body limit', () => {
  let h: Harness
  afterEach(() => h?.stop())

  it('takes a 25 MiB push whole, byte for byte, and reads its dedupe key from the last field', async () => {
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'github', dedupe: { type: 'json-path', path: 'head_commit.id' } })
    expect(endpoint.bodyLimit).toBe(DEFAULT_BODY_LIMIT)
    const push = providerSizedBody()
    const answer = await post(`${h.receiver.url}/h/github`, push.body, { 'x-github-event': 'push' })
    expect(answer).toMatchObject({ status: 200 })
    const [record] = h.receiver.requests.list()
    expect(record?.bodySize).toBe(push.body.length)
    expect(record?.bodyTruncated).toBe(false)
    expect(record?.refusedReason).toBeNull()
    expect(sha256(Buffer.from(record?.body ?? []))).toBe(push.sha256)
    expect(record?.notInspected).toBeNull()
    expect(record?.dedupeKey).toBe(push.headCommit)
  })

  it('still refuses a body past the default limit with 413, saying the limit, and records it', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'github' })
    const over = Buffer.alloc(DEFAULT_BODY_LIMIT + 1, 'x')
    const answer = await post(`${h.receiver.url}/h/github`, over)
    // The answer may come before the whole body is written; the caller then sees it or a reset.
    if ('status' in answer) {
      expect(answer.status).toBe(413)
      expect(answer.body.toString()).toContain(String(DEFAULT_BODY_LIMIT))
    }
    const [record] = h.receiver.requests.list()
    expect(record?.response.status).toBe(413)
    expect(record?.refusedReason).toBe(`the body is larger than this endpoint's limit of ${DEFAULT_BODY_LIMIT} bytes`)
    expect(record?.fault?.outcome).toBe('refused')
    expect(record?.bodyTruncated).toBe(true)
  })
})
