import type { CatalogEvent, FixtureContext } from './types'

// Bitbucket Cloud: the payload is the whole body, as the "Event payloads" page documents it
// (support.atlassian.com/bitbucket-cloud/docs/event-payloads/): every event carries `actor` and
// `repository` entities; a push its `push.changes`, a pull request event its `pullrequest`, a
// comment event its `comment`, an issue event its `issue`. UUIDs are in braces as Bitbucket
// writes them; within an event the actor, repository and pull request agree. Fresh per send.

const WORKSPACE = 'hookloop'
const SLUG = 'webhook-demo'
const FULL = `${WORKSPACE}/${SLUG}`
const WEB = `https://bitbucket.org/${FULL}`
const API = `https://api.bitbucket.org/2.0/repositories/${FULL}`

const braced = (ctx: FixtureContext) => `{${ctx.uuid()}}`
const href = (url: string) => ({ href: url })

function hash(ctx: FixtureContext): string {
  return Array.from({ length: 5 }, () => ctx.uuid().replace(/-/g, '').slice(0, 8)).join('')
}

// The Owner / User entity.
function account(ctx: FixtureContext) {
  const uuid = braced(ctx)
  return {
    type: 'user',
    uuid,
    display_name: 'Ada Lovelace',
    nickname: 'ada',
    account_id: `557058:${ctx.uuid()}`,
    links: { self: href(`https://api.bitbucket.org/2.0/users/${encodeURIComponent(uuid)}`), html: href(`https://bitbucket.org/${encodeURIComponent(uuid)}/`), avatar: href('https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/initials/AL-1.png') },
  }
}

type Account = ReturnType<typeof account>

// The Repository entity.
function repository(ctx: FixtureContext, owner: Account) {
  return {
    type: 'repository',
    full_name: FULL,
    name: SLUG,
    uuid: braced(ctx),
    links: { self: href(API), html: href(WEB), avatar: href(`https://bytebucket.org/ravatar/${encodeURIComponent(braced(ctx))}?ts=default`) },
    workspace: { type: 'workspace', slug: WORKSPACE, name: 'Hookloop', uuid: braced(ctx), links: { self: href(`https://api.bitbucket.org/2.0/workspaces/${WORKSPACE}`), html: href(`https://bitbucket.org/${WORKSPACE}/`), avatar: href(`https://bitbucket.org/workspaces/${WORKSPACE}/avatar/`) } },
    project: { type: 'project', key: 'HOOK', uuid: braced(ctx), name: 'Hookloop', links: { self: href(`https://api.bitbucket.org/2.0/workspaces/${WORKSPACE}/projects/HOOK`), html: href(`https://bitbucket.org/${WORKSPACE}/workspace/projects/HOOK`), avatar: href(`https://bitbucket.org/${WORKSPACE}/workspace/projects/HOOK/avatar/32`) } },
    website: null,
    owner,
    scm: 'git',
    is_private: true,
  }
}

type Repository = ReturnType<typeof repository>

function commit(ctx: FixtureContext, author: Account, at: string, id = hash(ctx)) {
  const parent = hash(ctx)
  return {
    type: 'commit',
    hash: id,
    date: at,
    author: { type: 'author', raw: 'Ada Lovelace <ada@example.com>', user: author },
    message: 'Verify webhook signatures before parsing\n',
    summary: { type: 'rendered', raw: 'Verify webhook signatures before parsing\n', markup: 'markdown', html: '<p>Verify webhook signatures before parsing</p>' },
    links: { self: href(`${API}/commit/${id}`), html: href(`${WEB}/commits/${id}`), diff: href(`${API}/diff/${id}`), approve: href(`${API}/commit/${id}/approve`), comments: href(`${API}/commit/${id}/comments`), statuses: href(`${API}/commit/${id}/statuses`), patch: href(`${API}/patch/${id}`) },
    parents: [{ type: 'commit', hash: parent, links: { self: href(`${API}/commit/${parent}`), html: href(`${WEB}/commits/${parent}`) } }],
    rendered: {},
    properties: {},
  }
}

function branch(name: string, target: ReturnType<typeof commit>) {
  return { type: 'branch', name, target, links: { self: href(`${API}/refs/branches/${name}`), commits: href(`${API}/commits/${name}`), html: href(`${WEB}/branch/${name}`) }, default_merge_strategy: 'merge_commit', merge_strategies: ['merge_commit', 'squash', 'fast_forward'], sync_strategies: ['merge_commit', 'rebase'] }
}

// Push: repo:push with one change on main.
function push(ctx: FixtureContext) {
  const actor = account(ctx)
  const repo = repository(ctx, actor)
  const head = commit(ctx, actor, ctx.iso())
  const before = commit(ctx, actor, ctx.iso(-3_600_000), head.parents[0]!.hash)
  return {
    push: {
      changes: [
        {
          old: branch('main', before),
          new: branch('main', head),
          truncated: false,
          created: false,
          forced: false,
          closed: false,
          links: { commits: href(`${API}/commits?include=${head.hash}&exclude=${before.hash}`), diff: href(`${API}/diff/${head.hash}..${before.hash}`), html: href(`${WEB}/branches/compare/${head.hash}..${before.hash}`) },
          commits: [head],
        },
      ],
    },
    actor,
    repository: repo,
  }
}

// The Pull Request entity.
function pullRequest(ctx: FixtureContext, actor: Account, repo: Repository, state: 'OPEN' | 'MERGED') {
  const id = Number(ctx.digits(2))
  const source = commit(ctx, actor, ctx.iso(-600_000))
  const destination = commit(ctx, actor, ctx.iso(-3_600_000))
  const at = (c: ReturnType<typeof commit>) => ({ type: 'commit', hash: c.hash.slice(0, 12), links: { self: href(`${API}/commit/${c.hash.slice(0, 12)}`), html: href(`${WEB}/commits/${c.hash.slice(0, 12)}`) } })
  const side = (name: string, c: ReturnType<typeof commit>) => ({ branch: { name }, commit: at(c), repository: { type: 'repository', full_name: repo.full_name, name: repo.name, uuid: repo.uuid, links: repo.links } })
  const merged = state === 'MERGED'
  return {
    type: 'pullrequest',
    id,
    title: 'Verify webhook signatures before parsing',
    description: 'Reads the raw body before JSON.parse.',
    rendered: { title: { type: 'rendered', raw: 'Verify webhook signatures before parsing', markup: 'markdown', html: '<p>Verify webhook signatures before parsing</p>' }, description: { type: 'rendered', raw: 'Reads the raw body before JSON.parse.', markup: 'markdown', html: '<p>Reads the raw body before JSON.parse.</p>' } },
    state,
    draft: false,
    author: actor,
    source: side('verify-signatures', source),
    destination: side('main', destination),
    merge_commit: merged ? at(commit(ctx, actor, ctx.iso())) : null,
    comment_count: 0,
    task_count: 0,
    close_source_branch: true,
    closed_by: merged ? actor : null,
    reason: '',
    created_on: ctx.iso(-600_000),
    updated_on: ctx.iso(),
    reviewers: [],
    participants: [],
    summary: { type: 'rendered', raw: 'Reads the raw body before JSON.parse.', markup: 'markdown', html: '<p>Reads the raw body before JSON.parse.</p>' },
    links: { self: href(`${API}/pullrequests/${id}`), html: href(`${WEB}/pull-requests/${id}`), commits: href(`${API}/pullrequests/${id}/commits`), approve: href(`${API}/pullrequests/${id}/approve`), diff: href(`${API}/pullrequests/${id}/diff`), diffstat: href(`${API}/pullrequests/${id}/diffstat`), comments: href(`${API}/pullrequests/${id}/comments`), activity: href(`${API}/pullrequests/${id}/activity`), merge: href(`${API}/pullrequests/${id}/merge`), decline: href(`${API}/pullrequests/${id}/decline`), statuses: href(`${API}/pullrequests/${id}/statuses`) },
  }
}

function pullRequestEvent(ctx: FixtureContext, state: 'OPEN' | 'MERGED') {
  const actor = account(ctx)
  const repo = repository(ctx, actor)
  return { actor, pullrequest: pullRequest(ctx, actor, repo, state), repository: repo }
}

// pullrequest:comment_created: the Comment entity on the pull request.
function pullRequestComment(ctx: FixtureContext) {
  const { actor, pullrequest, repository: repo } = pullRequestEvent(ctx, 'OPEN')
  const id = Number(ctx.digits(9))
  return {
    actor,
    comment: {
      id,
      created_on: ctx.iso(),
      updated_on: ctx.iso(),
      content: { type: 'rendered', raw: 'Looks good once the raw body is kept.', markup: 'markdown', html: '<p>Looks good once the raw body is kept.</p>' },
      user: actor,
      deleted: false,
      pending: false,
      type: 'pullrequest_comment',
      links: { self: href(`${API}/pullrequests/${pullrequest.id}/comments/${id}`), html: href(`${WEB}/pull-requests/${pullrequest.id}/_/diff#comment-${id}`) },
      pullrequest: { type: 'pullrequest', id: pullrequest.id, title: pullrequest.title, draft: false, links: { self: pullrequest.links.self, html: pullrequest.links.html } },
    },
    pullrequest: { ...pullrequest, comment_count: 1 },
    repository: repo,
  }
}

// issue:created: the Issue entity.
function issueCreated(ctx: FixtureContext) {
  const actor = account(ctx)
  const repo = repository(ctx, actor)
  const id = Number(ctx.digits(2))
  return {
    actor,
    issue: {
      type: 'issue',
      id,
      repository: { type: 'repository', full_name: repo.full_name, name: repo.name, uuid: repo.uuid, links: repo.links },
      links: { self: href(`${API}/issues/${id}`), html: href(`${WEB}/issues/${id}`), comments: href(`${API}/issues/${id}/comments`), attachments: href(`${API}/issues/${id}/attachments`), watch: href(`${API}/issues/${id}/watch`), vote: href(`${API}/issues/${id}/vote`) },
      title: 'Deliveries are refused after a proxy re-encodes the body',
      reporter: actor,
      assignee: null,
      created_on: ctx.iso(),
      updated_on: ctx.iso(),
      edited_on: null,
      state: 'new',
      kind: 'bug',
      priority: 'major',
      milestone: null,
      version: null,
      component: null,
      votes: 0,
      watches: 1,
      content: { type: 'rendered', raw: 'The signature no longer matches once the body is re-serialised.', markup: 'markdown', html: '<p>The signature no longer matches once the body is re-serialised.</p>' },
    },
    repository: repo,
  }
}

export const bitbucketEvents: CatalogEvent[] = [
  // Repository events: Push (repo:push).
  { type: 'repo:push', description: 'Commits were pushed to a branch.', payload: push },
  // Pull request events: Created (pullrequest:created).
  { type: 'pullrequest:created', description: 'A pull request was opened.', payload: (ctx) => pullRequestEvent(ctx, 'OPEN') },
  // Pull request events: Merged (pullrequest:fulfilled).
  { type: 'pullrequest:fulfilled', description: 'A pull request was merged.', payload: (ctx) => pullRequestEvent(ctx, 'MERGED') },
  // Pull request events: Comment created (pullrequest:comment_created).
  { type: 'pullrequest:comment_created', description: 'A comment was made on a pull request.', payload: pullRequestComment },
  // Issue events: Created (issue:created).
  { type: 'issue:created', description: 'An issue was created.', payload: issueCreated },
]
