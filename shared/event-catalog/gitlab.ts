import type { CatalogEvent, FixtureContext } from './types'

// GitLab: the payload is the whole body. Each event follows the example GitLab's "Webhook events"
// page gives for it (docs.gitlab.com/user/project/integrations/webhook_events/), field for field:
// `object_kind` names the event (X-Gitlab-Event is it in words), `project` and `repository`
// describe the same project, and an event's user, project and object ids agree within it. Ids
// and commit SHAs are fresh per send. Each body also holds every field @gitbeaker/core's webhook
// event type for it requires (named beside each event below; test/unit/providers/gitlab-types.test.ts).

const HOST = 'https://gitlab.com'
const NAMESPACE = 'hookloop'
const PATH = 'hookloop/webhook-demo'
const AVATAR = 'https://secure.gravatar.com/avatar/b2c7d6f3a1e04f4c9e3b2a1d0c9f8e7d?s=80&d=identicon'

function sha(ctx: FixtureContext): string {
  return Array.from({ length: 5 }, () => ctx.uuid().replace(/-/g, '').slice(0, 8)).join('')
}

function ids(ctx: FixtureContext) {
  return { project: Number(ctx.digits(8)), user: Number(ctx.digits(7)) }
}

// The `project` object of every event.
function project(id: number) {
  return {
    id,
    name: 'webhook-demo',
    description: 'Receives GitLab webhooks',
    web_url: `${HOST}/${PATH}`,
    avatar_url: null,
    git_ssh_url: `git@gitlab.com:${PATH}.git`,
    git_http_url: `${HOST}/${PATH}.git`,
    namespace: NAMESPACE,
    visibility_level: 0,
    path_with_namespace: PATH,
    default_branch: 'main',
    ci_config_path: '',
    homepage: `${HOST}/${PATH}`,
    url: `git@gitlab.com:${PATH}.git`,
    ssh_url: `git@gitlab.com:${PATH}.git`,
    http_url: `${HOST}/${PATH}.git`,
  }
}

// The `repository` object of push, tag push, issue, note and merge request events.
const repository = { name: 'webhook-demo', url: `git@gitlab.com:${PATH}.git`, description: 'Receives GitLab webhooks', homepage: `${HOST}/${PATH}`, git_http_url: `${HOST}/${PATH}.git`, git_ssh_url: `git@gitlab.com:${PATH}.git`, visibility_level: 0 }

// The `user` object of issue, note, merge request and pipeline events.
function user(id: number) {
  return { id, name: 'Ada Lovelace', username: 'ada', state: 'active', avatar_url: AVATAR, web_url: `${HOST}/ada`, email: 'ada@example.com' }
}

function commit(ctx: FixtureContext, id = sha(ctx)) {
  return {
    id,
    message: 'Verify webhook signatures before parsing\n\nThe raw body is read first.',
    title: 'Verify webhook signatures before parsing',
    timestamp: ctx.iso(-60_000),
    url: `${HOST}/${PATH}/-/commit/${id}`,
    author: { name: 'Ada Lovelace', email: 'ada@example.com' },
    added: ['src/verify.ts'],
    modified: ['README.md'],
    removed: [],
  }
}

// Push events / Tag events: the example payloads.
function push(ctx: FixtureContext, kind: 'push' | 'tag_push') {
  const { project: projectId, user: userId } = ids(ctx)
  const commits = [commit(ctx), commit(ctx)]
  const after = commits[commits.length - 1]!.id
  return {
    object_kind: kind,
    event_name: kind,
    before: kind === 'tag_push' ? '0000000000000000000000000000000000000000' : sha(ctx),
    after,
    ref: kind === 'tag_push' ? 'refs/tags/v1.0.0' : 'refs/heads/main',
    ref_protected: true,
    checkout_sha: after,
    message: kind === 'tag_push' ? 'Release 1.0.0' : null,
    user_id: userId,
    user_name: 'Ada Lovelace',
    user_username: 'ada',
    user_email: 'ada@example.com',
    user_avatar: AVATAR,
    project_id: projectId,
    project: project(projectId),
    commits: kind === 'tag_push' ? [] : commits,
    total_commits_count: kind === 'tag_push' ? 0 : commits.length,
    push_options: {},
    repository,
  }
}

// gitbeaker's types require event_name beside event_type (system hooks send both).
function hookHead(kind: string, userId: number, projectId: number) {
  return { object_kind: kind, event_name: kind, event_type: kind, user: user(userId), project: project(projectId) }
}

function label(ctx: FixtureContext, projectId: number) {
  return { id: Number(ctx.digits(8)), title: 'bug', color: '#dc143c', project_id: projectId, created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(-86_400_000), template: false, description: 'Something is broken', type: 'ProjectLabel', group_id: null }
}

// Merge request events: the example payload (action "open").
function mergeRequest(ctx: FixtureContext) {
  const { project: projectId, user: userId } = ids(ctx)
  const id = Number(ctx.digits(9))
  const iid = Number(ctx.digits(2))
  const last = commit(ctx)
  const labels = [label(ctx, projectId)]
  return {
    ...hookHead('merge_request', userId, projectId),
    object_attributes: {
      id,
      iid,
      target_branch: 'main',
      source_branch: 'verify-signatures',
      source_project_id: projectId,
      author_id: userId,
      assignee_ids: [userId],
      assignee_id: userId,
      reviewer_ids: [],
      title: 'Verify webhook signatures before parsing',
      created_at: ctx.iso(),
      updated_at: ctx.iso(),
      last_edited_at: null,
      last_edited_by_id: null,
      milestone_id: null,
      state_id: 1,
      state: 'opened',
      blocking_discussions_resolved: true,
      work_in_progress: false,
      draft: false,
      first_contribution: false,
      merge_status: 'unchecked',
      detailed_merge_status: 'not_open',
      target_project_id: projectId,
      description: 'Reads the raw body before JSON.parse.',
      prepared_at: ctx.iso(),
      total_time_spent: 0,
      time_change: 0,
      human_total_time_spent: null,
      human_time_change: null,
      human_time_estimate: null,
      url: `${HOST}/${PATH}/-/merge_requests/${iid}`,
      source: project(projectId),
      target: project(projectId),
      last_commit: { id: last.id, message: last.message, title: last.title, timestamp: last.timestamp, url: last.url, author: last.author },
      labels,
      action: 'open',
      head_pipeline_id: null,
      time_estimate: 0,
      merge_when_pipeline_succeeds: false,
      merge_user_id: null,
      merge_commit_sha: null,
      merge_error: null,
      merge_params: { force_remove_source_branch: '1' },
      squash: false,
      squash_commit_sha: null,
      discussion_locked: null,
      updated_by_id: null,
      system: false,
      system_action: null,
    },
    labels,
    // What opening set, each from nothing (@gitbeaker/core's WebhookMergeRequestEventSchema names these).
    changes: {
      target_branch: { previous: null, current: 'main' },
      updated_by_id: { previous: null, current: null },
      draft: { previous: null, current: false },
      updated_at: { previous: null, current: ctx.iso() },
      assignees: { previous: [], current: [user(userId)] },
      reviewers: { previous: [], current: [] },
      labels: { previous: [], current: labels },
      last_edited_at: { previous: null, current: null },
      last_edited_by_id: { previous: null, current: null },
    },
    repository,
    assignees: [user(userId)],
    reviewers: [],
  }
}

// Work item events (issues): the example payload (action "open").
function issue(ctx: FixtureContext) {
  const { project: projectId, user: userId } = ids(ctx)
  const id = Number(ctx.digits(9))
  const iid = Number(ctx.digits(2))
  const labels = [label(ctx, projectId)]
  return {
    ...hookHead('issue', userId, projectId),
    object_attributes: {
      id,
      iid,
      title: 'Deliveries are refused after a proxy re-encodes the body',
      description: 'The signature no longer matches once the body is re-serialised.',
      author_id: userId,
      assignee_ids: [userId],
      assignee_id: userId,
      closed_at: null,
      confidential: false,
      created_at: ctx.iso(),
      updated_at: ctx.iso(),
      updated_by_id: null,
      last_edited_at: null,
      last_edited_by_id: null,
      discussion_locked: null,
      due_date: null,
      health_status: null,
      milestone_id: null,
      moved_to_id: null,
      duplicated_to_id: null,
      project_id: projectId,
      relative_position: 0,
      state_id: 1,
      state: 'opened',
      severity: 'unknown',
      time_estimate: 0,
      total_time_spent: 0,
      time_change: 0,
      human_total_time_spent: null,
      human_time_change: null,
      human_time_estimate: null,
      weight: null,
      type: 'Issue',
      url: `${HOST}/${PATH}/-/issues/${iid}`,
      labels,
      customer_relations_contacts: [],
      escalation_status: null,
      escalation_policy: null,
      action: 'open',
    },
    labels,
    // What opening set, each from nothing, as GitLab's example (updated_by_id, updated_at, labels).
    changes: {
      updated_by_id: { previous: null, current: null },
      updated_at: { previous: null, current: ctx.iso() },
      labels: { previous: [], current: labels },
    },
    repository,
    assignees: [user(userId)],
    assignee: user(userId),
  }
}

// Comment events, a comment on a merge request: the example payload.
function note(ctx: FixtureContext) {
  const { project: projectId, user: userId } = ids(ctx)
  const id = Number(ctx.digits(9))
  const mr = mergeRequest(ctx).object_attributes
  return {
    object_kind: 'note', event_name: 'note', event_type: 'note',
    user: user(userId),
    project_id: projectId,
    project: project(projectId),
    object_attributes: {
      attachment: null,
      author_id: userId,
      change_position: null,
      commit_id: null,
      created_at: ctx.iso(),
      discussion_id: sha(ctx),
      id,
      internal: false,
      line_code: null,
      note: 'Looks good once the raw body is kept.',
      noteable_id: mr.id,
      noteable_type: 'MergeRequest',
      original_position: null,
      position: null,
      project_id: projectId,
      resolved_at: null,
      resolved_by_id: null,
      resolved_by_push: null,
      st_diff: null,
      system: false,
      type: null,
      updated_at: ctx.iso(),
      updated_by_id: null,
      description: 'Looks good once the raw body is kept.',
      url: `${mr.url}#note_${id}`,
      action: 'create',
    },
    repository,
    merge_request: { ...mr, source_project_id: projectId, target_project_id: projectId, source: project(projectId), target: project(projectId), author_id: userId, assignee_ids: [userId], assignee_id: userId, assignee: user(userId), position: 0 },
  }
}

// Pipeline events: the example payload (a successful pipeline on main with one build).
function pipeline(ctx: FixtureContext) {
  const { project: projectId, user: userId } = ids(ctx)
  const id = Number(ctx.digits(10))
  const head = commit(ctx)
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id,
      iid: Number(ctx.digits(3)),
      name: null,
      ref: 'main',
      tag: false,
      sha: head.id,
      before_sha: sha(ctx),
      source: 'push',
      status: 'success',
      detailed_status: 'passed',
      stages: ['test'],
      created_at: ctx.iso(-120_000).replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
      finished_at: ctx.iso().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
      duration: 118,
      queued_duration: 2,
      variables: [],
      url: `${HOST}/${PATH}/-/pipelines/${id}`,
    },
    merge_request: null,
    user: user(userId),
    project: project(projectId),
    commit: { id: head.id, message: head.message, title: head.title, timestamp: head.timestamp, url: head.url, author: head.author },
    source_pipeline: null,
    builds: [
      {
        id: Number(ctx.digits(10)),
        stage: 'test',
        name: 'unit',
        status: 'success',
        created_at: ctx.iso(-120_000).replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
        started_at: ctx.iso(-118_000).replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
        finished_at: ctx.iso().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
        duration: 116.0,
        queued_duration: 2.0,
        failure_reason: null,
        when: 'on_success',
        manual: false,
        allow_failure: false,
        user: user(userId),
        runner: { id: Number(ctx.digits(6)), description: 'shared-runner', runner_type: 'instance_type', active: true, is_shared: true, tags: ['linux'] },
        artifacts_file: { filename: null, size: null },
        environment: null,
      },
    ],
  }
}

export const gitlabEvents: CatalogEvent[] = [
  // Push events ("Push Hook"); WebhookPushEventSchema.
  { type: 'push', description: 'Commits were pushed to a branch.', payload: (ctx) => push(ctx, 'push') },
  // Tag events ("Tag Push Hook"); WebhookTagEventSchema.
  { type: 'tag_push', description: 'A tag was pushed.', payload: (ctx) => push(ctx, 'tag_push') },
  // Merge request events ("Merge Request Hook"), action open; WebhookMergeRequestEventSchema.
  { type: 'merge_request.open', description: 'A merge request was opened.', payload: mergeRequest },
  // Work item events ("Issue Hook"), action open; WebhookIssueEventSchema.
  { type: 'issue.open', description: 'An issue was opened.', payload: issue },
  // Comment events ("Note Hook") on a merge request; WebhookMergeRequestNoteEventSchema.
  { type: 'note.create', description: 'A comment was made on a merge request.', payload: note },
  // Pipeline events ("Pipeline Hook"); WebhookPipelineEventSchema.
  { type: 'pipeline', description: 'A pipeline finished.', payload: pipeline },
]
