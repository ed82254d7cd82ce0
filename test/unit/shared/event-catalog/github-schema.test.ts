import Ajv2020 from 'ajv/dist/2020'
import webhooks from '@octokit/openapi-webhooks/generated/api.github.com.json'
import { describe, expect, it } from 'vitest'
import { fixtureContext } from '../../../../shared/event-catalog'
import { githubEvents } from '../../../../shared/event-catalog/github'

// Every GitHub catalog event against GitHub's own webhooks OpenAPI document (the schema
// `webhook-<event>-<action>` its `webhooks` section names for the event), with every required
// field present and typed: a consumer that reads `pull_request.head.repo.full_name` finds it.

const document = webhooks as unknown as { webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>; components: { schemas: Record<string, unknown> } }

const ajv = new Ajv2020({ strict: false, allErrors: true })
// The formats the document uses, checked as GitHub produces them.
ajv.addFormat('uri', (s: string) => URL.canParse(s))
ajv.addFormat('uri-template', true)
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s))
ajv.addFormat('date', (s: string) => /^\d{4}-\d\d-\d\d$/.test(s))
ajv.addFormat('email', (s: string) => /^[^@\s]+@[^@\s]+$/.test(s))
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) })
ajv.addSchema({ $id: 'github-webhooks', components: document.components })

/** `pull_request.opened` → the document's webhook name `pull-request-opened`. */
function webhookName(type: string): string {
  return type.replace(/[._]/g, '-')
}

function validatorFor(type: string) {
  const entry = document.webhooks[webhookName(type)]
  if (!entry) throw new Error(`GitHub's webhooks document has no webhook "${webhookName(type)}" for catalog type "${type}"`)
  const ref = entry.post.requestBody.content['application/json'].schema.$ref
  const validate = ajv.getSchema(`github-webhooks${ref}`)
  if (!validate) throw new Error(`no schema at ${ref}`)
  return validate
}

describe('GitHub catalog payloads and GitHub\u2019s webhooks OpenAPI', () => {
  for (const event of githubEvents) {
    it(`${event.type} is valid against its webhook schema`, () => {
      const validate = validatorFor(event.type)
      const payload = JSON.parse(JSON.stringify(event.payload(fixtureContext(Date.UTC(2026, 11, 1)))))
      const ok = validate(payload)
      expect(ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)).toEqual([])
    })
  }
})

describe('GitHub catalog payloads agree within themselves', () => {
  const now = Date.UTC(2026, 11, 1)
  const payloadOf = (type: string) => githubEvents.find((e) => e.type === type)!.payload(fixtureContext(now)) as { pull_request: { head: { repo: { id: number; full_name: string } }; base: { repo: { id: number; full_name: string } }; user: { id: number } }; repository: { id: number; full_name: string }; sender: { id: number } }

  it('a pull request\u2019s head and base repositories are the payload\u2019s repository; its author is the sender', () => {
    for (const type of ['pull_request.opened', 'pull_request.closed']) {
      const p = payloadOf(type)
      expect(p.pull_request.head.repo.full_name).toBe(p.repository.full_name)
      expect(p.pull_request.base.repo.id).toBe(p.repository.id)
      expect(p.pull_request.user.id).toBe(p.sender.id)
    }
  })

  it('ids are fresh per send', () => {
    const a = payloadOf('pull_request.opened')
    const b = payloadOf('pull_request.opened')
    expect(a.repository.id).not.toBe(b.repository.id)
    expect(a.pull_request).not.toEqual(b.pull_request)
  })
})
