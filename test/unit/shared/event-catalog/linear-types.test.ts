import { describe, expect, it } from 'vitest'
import { linearEvents } from '../../../../shared/event-catalog/linear'
import { itCompilesEveryEvent, typeErrors } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Linear catalog event, as the whole body Linear sends, against @linear/sdk's webhook payload
// types (`EntityWebhookPayloadWith<Entity>Data`: the envelope with the entity's `data`), compiled
// strict: a required field missing, an unknown field or a wrong type fails.

/** The SDK type of the whole body, by the entity type before the action. */
const BODY_TYPES: Record<string, string> = {
  Issue: 'EntityWebhookPayloadWithIssueData',
  Comment: 'EntityWebhookPayloadWithCommentData',
  Project: 'EntityWebhookPayloadWithProjectData',
  IssueLabel: 'EntityWebhookPayloadWithIssueLabelData',
}

/** The SDK type of `data` alone (its errors name the field; the body's union type's do not). */
const DATA_TYPES: Record<string, string> = { Issue: 'IssueWebhookPayload', Comment: 'CommentWebhookPayload', Project: 'ProjectWebhookPayload', IssueLabel: 'IssueLabelWebhookPayload' }

// The SDK types the envelope's createdAt as Date (it parses it); on the wire it is the ISO string.
const IMPORTS = [
  `import type { ${[...Object.values(BODY_TYPES), ...Object.values(DATA_TYPES)].join(', ')} } from '@linear/sdk'`,
  'type Wire<T> = T extends Date ? string : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T',
]

const linearBody = (type: string) => catalogBody<Record<string, unknown>>('linear', type)

const entity = (type: string): string => type.slice(0, type.indexOf('.'))
const bodyType = (type: string): string => `Wire<${BODY_TYPES[entity(type)] ?? 'never'}>`

/** The whole body typed as its payload, and its data typed as the entity alone. */
function checks(type: string, body: Record<string, unknown>) {
  return [
    { name: type, type: bodyType(type), value: body },
    { name: type, type: DATA_TYPES[entity(type)] ?? 'never', value: body.data },
  ]
}

describe('Linear catalog events and @linear/sdk\u2019s webhook payload types', () => {
  itCompilesEveryEvent('every catalog event, as the whole body, type-checks as its entity\u2019s webhook payload', IMPORTS, linearEvents, (type) => checks(type, linearBody(type)))

  it('the check refuses an issue with a required field missing', () => {
    const body = linearBody('Issue.create') as { data: Record<string, unknown> }
    delete body.data.identifier
    expect(typeErrors(IMPORTS, checks('Issue.create', body))['Issue.create']!.join(' ')).toMatch(/identifier/)
  })

  it('ids that refer to each other agree: an issue\u2019s state is its stateId, a comment\u2019s issue is its issueId', () => {
    const issue = linearBody('Issue.update') as { data: { stateId: string; state: { id: string }; teamId: string; team?: { id: string }; url: string; identifier: string }; url: string }
    expect(issue.data.state.id).toBe(issue.data.stateId)
    expect(issue.url).toBe(issue.data.url)
    expect(issue.data.url).toContain(issue.data.identifier)
    const comment = linearBody('Comment.create') as { data: { issueId: string; issue: { id: string } } }
    expect(comment.data.issue.id).toBe(comment.data.issueId)
  })

  it('values are fresh per send', () => {
    expect((linearBody('Issue.create') as { data: { id: string } }).data.id).not.toBe((linearBody('Issue.create') as { data: { id: string } }).data.id)
  })
})
