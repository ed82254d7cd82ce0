// Credentials by name (headers and query parameters) and known secrets leave no export: a real
// engine captures requests carrying them, and HAR, cURL and case files are grepped for the values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSelection } from '../../../electron/engine/exports'
import { storeOfDatabase } from '../../../electron/engine/store'
import { EXPORT_FORMATS } from '../../../shared/contract'
import { newEngine } from './support'

const VALUES = {
  gitlab: 'glpat-9f8e7d6c5b4a3928',
  webhookSecret: 'hook-secret-0a1b2c3d4e',
  authToken: 'auth-token-77665544',
  queryToken: 'qtok_55aa66bb77cc',
  queryKey: 'qkey-1234abcd',
  endpointSecret: 'endpoint-secret-value-42',
}

let env: Awaited<ReturnType<typeof newEngine>>
let requestIds: number[]

beforeAll(async () => {
  env = await newEngine()
  await env.engine.putEndpoint({ slug: 'gitlab', scheme: null, secrets: [VALUES.endpointSecret] })
  const url = `${env.engine.receiver.endpointUrl('gitlab')}?page=2&token=${VALUES.queryToken}&api_key=${VALUES.queryKey}`
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'x-gitlab-token': VALUES.gitlab, 'x-webhook-secret': VALUES.webhookSecret, 'x-auth-token': VALUES.authToken, 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook' },
    // The body echoes one header value and the endpoint's secret: both go too.
    body: JSON.stringify({ echoed: VALUES.gitlab, note: `made with ${VALUES.endpointSecret}` }),
  })
  await response.arrayBuffer()
  await env.engine.quiesce()
  requestIds = env.engine.receiver.requests.list({ limit: 10 }).map((r) => r.id)
})

afterAll(async () => {
  await env?.close()
})

describe('redacted exports', () => {
  it.each(EXPORT_FORMATS)('%s carries none of the credential values, and keeps the harmless ones', async (format) => {
    const text = await exportSelection(storeOfDatabase(env.engine.db), { format, requestIds, now: 0 })
    for (const [what, value] of Object.entries(VALUES)) expect(text.includes(value), `${what} leaked in ${format}`).toBe(false)
    expect(text).toContain('page=2')
    expect(text).toContain('Push Hook')
    expect(text).toContain('[redacted]')
  })

  it('keeps every value when asked to keep secrets', async () => {
    const text = await exportSelection(storeOfDatabase(env.engine.db), { format: 'case', requestIds, now: 0, keepSecrets: true })
    for (const value of Object.values(VALUES)) expect(text).toContain(value)
  })
})
