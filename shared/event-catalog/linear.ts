import type { CatalogEvent, FixtureContext } from './types'

// Linear: the payload is the entity (`data`); the event type is `<type>.<action>` (Issue.create),
// split into the body's type and action. Shapes follow linear.app/developers/webhooks and the
// webhook payload types @linear/sdk publishes (`IssueWebhookPayload` …, the `data` of
// `EntityWebhookPayloadWith<Entity>Data`): every required field, child objects (`state`, `team`,
// `labels`) that carry the ids beside them (`stateId`, `teamId`, `labelIds`).

/** The workspace one event happens in: its team, a member, a workflow state's id. */
function workspace(ctx: FixtureContext) {
  const team = { id: ctx.uuid(), key: 'ENG', name: 'Engineering' }
  const user = { id: ctx.uuid(), name: 'Ada Lovelace', email: 'ada@example.com', url: 'https://linear.app/hookloop/profiles/ada', avatarUrl: null }
  return { team, user }
}

const STATES = {
  Todo: { name: 'Todo', type: 'unstarted', color: '#e2e2e2' },
  Done: { name: 'Done', type: 'completed', color: '#5e6ad2' },
  Canceled: { name: 'Canceled', type: 'canceled', color: '#95a2b3' },
} as const

// IssueWebhookPayload (@linear/sdk).
function issue(ctx: FixtureContext, state: keyof typeof STATES) {
  const { team, user } = workspace(ctx)
  const number = Number(ctx.digits(3))
  const identifier = `${team.key}-${number}`
  const label = { id: ctx.uuid(), name: 'webhooks', color: '#5e6ad2', parentId: null }
  const workflowState = { id: ctx.uuid(), ...STATES[state] }
  return {
    id: ctx.uuid(),
    createdAt: ctx.iso(-3_600_000),
    updatedAt: ctx.iso(),
    archivedAt: state === 'Canceled' ? ctx.iso() : null,
    number,
    identifier,
    previousIdentifiers: [],
    title: 'Webhook retries need backoff',
    description: 'Deliveries retry immediately.',
    priority: 2,
    priorityLabel: 'High',
    prioritySortOrder: -1234.5,
    sortOrder: -87.25,
    estimate: null,
    url: `https://linear.app/hookloop/issue/${identifier}/webhook-retries-need-backoff`,
    teamId: team.id,
    team,
    stateId: workflowState.id,
    state: workflowState,
    labelIds: [label.id],
    labels: [label],
    assigneeId: user.id,
    assignee: user,
    creatorId: user.id,
    creator: user,
    subscriberIds: [user.id],
    completedAt: state === 'Done' ? ctx.iso() : null,
    canceledAt: state === 'Canceled' ? ctx.iso() : null,
    startedAt: state === 'Todo' ? null : ctx.iso(-1_800_000),
    addedToTeamAt: ctx.iso(-3_600_000),
    reactionData: [],
    releases: [],
    ...(state === 'Canceled' ? { trashed: true } : {}),
  }
}

// CommentWebhookPayload: the issue it is on as a child object beside its issueId.
function comment(ctx: FixtureContext) {
  const { team, user } = workspace(ctx)
  const number = Number(ctx.digits(3))
  const identifier = `${team.key}-${number}`
  const onIssue = { id: ctx.uuid(), identifier, title: 'Webhook retries need backoff', url: `https://linear.app/hookloop/issue/${identifier}/webhook-retries-need-backoff`, teamId: team.id, team }
  return { id: ctx.uuid(), createdAt: ctx.iso(), updatedAt: ctx.iso(), body: 'Fixed by answering 202 first.', issueId: onIssue.id, issue: onIssue, userId: user.id, user, reactionData: [], editedAt: null, parentId: null }
}

// ProjectWebhookPayload: status beside statusId, lead among the members.
function project(ctx: FixtureContext) {
  const { team, user } = workspace(ctx)
  const slugId = ctx.id('', 12).toLowerCase()
  const status = { id: ctx.uuid(), name: 'In Progress', type: 'started', color: '#f2c94c' }
  return {
    id: ctx.uuid(),
    createdAt: ctx.iso(-86_400_000 * 14),
    updatedAt: ctx.iso(),
    name: 'Webhook reliability',
    description: 'Retries, backoff and dead letters for every webhook we send.',
    color: '#bec2c8',
    icon: null,
    slugId,
    url: `https://linear.app/hookloop/project/webhook-reliability-${slugId}`,
    statusId: status.id,
    status,
    priority: 2,
    prioritySortOrder: 0,
    sortOrder: 1,
    leadId: user.id,
    lead: user,
    creatorId: user.id,
    memberIds: [user.id],
    teamIds: [team.id],
    labelIds: [],
    startedAt: ctx.iso(-86_400_000 * 7),
    startDate: ctx.iso(-86_400_000 * 7).slice(0, 10),
    targetDate: null,
    completedAt: null,
    canceledAt: null,
    scopeHistory: [8, 10],
    completedScopeHistory: [2, 4],
    inProgressScopeHistory: [3, 3],
    issueCountHistory: [5, 6],
    completedIssueCountHistory: [1, 2],
  }
}

// IssueLabelWebhookPayload.
function issueLabel(ctx: FixtureContext) {
  const { team, user } = workspace(ctx)
  return { id: ctx.uuid(), createdAt: ctx.iso(), updatedAt: ctx.iso(), name: 'webhooks', description: null, color: '#5e6ad2', isGroup: false, parentId: null, teamId: team.id, creatorId: user.id }
}

export const linearEvents: CatalogEvent[] = [
  { type: 'Issue.create', description: 'An issue was created.', payload: (ctx) => issue(ctx, 'Todo') },
  { type: 'Issue.update', description: 'An issue changed (moved to Done).', payload: (ctx) => issue(ctx, 'Done') },
  { type: 'Issue.remove', description: 'An issue was deleted.', payload: (ctx) => issue(ctx, 'Canceled') },
  { type: 'Comment.create', description: 'A comment was added to an issue.', payload: comment },
  { type: 'Project.update', description: 'A project changed.', payload: project },
  { type: 'IssueLabel.create', description: 'A label was created.', payload: issueLabel },
]
