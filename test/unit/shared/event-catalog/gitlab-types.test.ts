import { describe, expect, it } from 'vitest'
import { gitlabEvents } from '../../../../shared/event-catalog/gitlab'
import { itCompilesEveryEvent, typeErrors } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every GitLab catalog event, as the whole body GitLab POSTs, against @gitbeaker/core's webhook
// event types (`WebhookPushEventSchema` …), compiled strict: a required field missing or a wrong
// type (a project id that is a string) fails.
//
// gitbeaker writes these types by hand, and where they differ from the payloads GitLab documents
// (docs.gitlab.com, "Webhook events"), GitLab's examples win: `Documented<T>` lets a field be null
// where GitLab's examples show null (a merge request's `merge_commit_sha` before it is merged, an
// issue's `escalation_policy` unless it is an incident) and lets the body carry fields GitLab sends
// that the types leave out (`project.ci_config_path`, `user.email`). A note's `noteable_id` is the
// number GitLab sends (its example: `"noteable_id": 1`), where the types say string.

const EVENT_TYPES: Record<string, string> = {
  push: 'WebhookPushEventSchema',
  tag_push: 'WebhookTagEventSchema',
  'merge_request.open': 'WebhookMergeRequestEventSchema',
  'issue.open': 'WebhookIssueEventSchema',
  'note.create': "MappedOmit<WebhookMergeRequestNoteEventSchema, 'object_attributes'> & { object_attributes: MappedOmit<WebhookMergeRequestNoteEventSchema['object_attributes'], 'noteable_id'> & { noteable_id: number } }",
  pipeline: 'WebhookPipelineEventSchema',
}

const IMPORTS = [
  "import type { WebhookPushEventSchema, WebhookTagEventSchema, WebhookMergeRequestEventSchema, WebhookIssueEventSchema, WebhookMergeRequestNoteEventSchema, WebhookPipelineEventSchema } from '@gitbeaker/core'",
  'type MappedOmit<T, K extends keyof T> = { [P in keyof T as P extends K ? never : P]: T[P] }',
  'type Documented<T> = T extends readonly (infer U)[] ? Documented<U>[] : T extends object ? { [K in keyof T]: Documented<T[K]> | null } & Record<string, unknown> : T',
]

type Body = Record<string, unknown>

const gitlabBody = (type: string) => catalogBody<Body>('gitlab', type)

const check = (type: string, body: unknown) => ({ name: type, type: `Documented<${EVENT_TYPES[type] ?? 'never'}>`, value: body })

describe('GitLab catalog events and @gitbeaker/core\u2019s webhook event types', () => {
  itCompilesEveryEvent('every catalog event, as the whole body, type-checks as its webhook event type', IMPORTS, gitlabEvents, (type) => check(type, gitlabBody(type)))

  it('the check refuses a project id that is a string and a missing required field', () => {
    const push = gitlabBody('push') as { project: { id: unknown } }
    push.project.id = String(push.project.id)
    const opened = gitlabBody('merge_request.open') as { object_attributes: Record<string, unknown> }
    delete opened.object_attributes.source_branch
    const errors = typeErrors(IMPORTS, [check('push', push), check('merge_request.open', opened)])
    expect(errors['push']!.join(' ')).toMatch(/string.*number/)
    expect(errors['merge_request.open']!.join(' ')).toMatch(/source_branch/)
  })

  it('ids agree within an event: project, user, commits and the noted merge request', () => {
    const push = gitlabBody('push') as { after: string; checkout_sha: string; project_id: number; project: { id: number }; commits: { id: string }[]; total_commits_count: number }
    expect(push.after).toBe(push.commits.at(-1)!.id)
    expect(push.checkout_sha).toBe(push.after)
    expect(push.project_id).toBe(push.project.id)
    expect(push.total_commits_count).toBe(push.commits.length)
    const opened = gitlabBody('merge_request.open') as { user: { id: number }; project: { id: number }; object_attributes: { author_id: number; source_project_id: number; target_project_id: number; source: { id: number } } }
    expect(opened.object_attributes.author_id).toBe(opened.user.id)
    expect([opened.object_attributes.source_project_id, opened.object_attributes.target_project_id, opened.object_attributes.source.id]).toEqual([opened.project.id, opened.project.id, opened.project.id])
    const note = gitlabBody('note.create') as { user: { id: number }; project_id: number; object_attributes: { noteable_id: number; author_id: number }; merge_request: { id: number; author_id: number; source_project_id: number } }
    expect(note.object_attributes.noteable_id).toBe(note.merge_request.id)
    expect(note.merge_request.source_project_id).toBe(note.project_id)
    expect(note.object_attributes.author_id).toBe(note.user.id)
  })

  it('values are fresh per send', () => {
    expect((gitlabBody('push') as { after: string }).after).not.toBe((gitlabBody('push') as { after: string }).after)
  })
})
