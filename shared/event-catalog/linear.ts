import type { CatalogEvent, FixtureContext } from './types'

// Linear: the payload is the entity (`data`); the event type is `<type>.<action>` (Issue.create),
// split into the body's type and action. Shapes follow linear.app/developers/webhooks.

function issue(ctx: FixtureContext, state: string) {
  const number = Number(ctx.digits(3))
  return { id: ctx.uuid(), createdAt: ctx.iso(-60_000), updatedAt: ctx.iso(), number, title: 'Webhook retries need backoff', description: 'Deliveries retry immediately.', priority: 2, priorityLabel: 'High', estimate: null, identifier: `ENG-${number}`, url: `https://linear.app/hookloop/issue/ENG-${number}`, teamId: ctx.uuid(), stateId: ctx.uuid(), state: { id: ctx.uuid(), name: state, type: state === 'Done' ? 'completed' : 'unstarted', color: '#e2e2e2' }, labelIds: [], assigneeId: null, creatorId: ctx.uuid() }
}

export const linearEvents: CatalogEvent[] = [
  { type: 'Issue.create', description: 'An issue was created.', payload: (ctx) => issue(ctx, 'Todo') },
  { type: 'Issue.update', description: 'An issue changed (moved to Done).', payload: (ctx) => issue(ctx, 'Done') },
  { type: 'Issue.remove', description: 'An issue was deleted.', payload: (ctx) => issue(ctx, 'Canceled') },
  { type: 'Comment.create', description: 'A comment was added to an issue.', payload: (ctx) => ({ id: ctx.uuid(), createdAt: ctx.iso(), updatedAt: ctx.iso(), body: 'Fixed by answering 202 first.', issueId: ctx.uuid(), userId: ctx.uuid(), url: `https://linear.app/hookloop/issue/ENG-1#comment-${ctx.id('', 8).toLowerCase()}` }) },
  { type: 'Project.update', description: 'A project changed.', payload: (ctx) => ({ id: ctx.uuid(), createdAt: ctx.iso(-86_400_000), updatedAt: ctx.iso(), name: 'Webhook reliability', description: '', state: 'started', progress: 0.4, targetDate: null, url: 'https://linear.app/hookloop/project/webhook-reliability' }) },
  { type: 'IssueLabel.create', description: 'A label was created.', payload: (ctx) => ({ id: ctx.uuid(), createdAt: ctx.iso(), updatedAt: ctx.iso(), name: 'webhooks', color: '#5e6ad2', teamId: ctx.uuid() }) },
]
