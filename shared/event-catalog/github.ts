import type { CatalogEvent, FixtureContext } from './types'

// GitHub: the payload is the whole body. Event types are `X-GitHub-Event` plus the body's action
// (`pull_request.opened`). Every payload follows the schema GitHub's webhooks OpenAPI document
// (@octokit/openapi-webhooks, api.github.com) names for it — `webhook-push`,
// `webhook-pull-request-opened` … — with every required field present, as in GitHub's example
// payloads (@octokit/webhooks-examples): whole user objects with their API URLs, whole repository
// objects, and a pull request's head and base carrying their repositories.
// Within one payload the same things are the same objects: the repository of `repository` is the
// base (and head) repository of a pull request, `sender` is the author. Ids are fresh per send.

const API = 'https://api.github.com'
const WEB = 'https://github.com'

function user(ctx: FixtureContext, login: string, type: 'User' | 'Organization' = 'User') {
  const id = Number(ctx.digits(8))
  const url = `${API}/users/${login}`
  return {
    login,
    id,
    node_id: `${type === 'User' ? 'U' : 'O'}_kgDO${ctx.id('', 6)}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `${WEB}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  }
}

type User = ReturnType<typeof user>

function repository(ctx: FixtureContext, owner: User, name: string) {
  const fullName = `${owner.login}/${name}`
  const url = `${API}/repos/${fullName}`
  return {
    id: Number(ctx.digits(9)),
    node_id: `R_kgDO${ctx.id('', 8)}`,
    name,
    full_name: fullName,
    private: false,
    owner,
    html_url: `${WEB}/${fullName}`,
    description: 'A repository receiving Hookloop webhooks',
    fork: false,
    url,
    forks_url: `${url}/forks`,
    keys_url: `${url}/keys{/key_id}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    teams_url: `${url}/teams`,
    hooks_url: `${url}/hooks`,
    issue_events_url: `${url}/issues/events{/number}`,
    events_url: `${url}/events`,
    assignees_url: `${url}/assignees{/user}`,
    branches_url: `${url}/branches{/branch}`,
    tags_url: `${url}/tags`,
    blobs_url: `${url}/git/blobs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    trees_url: `${url}/git/trees{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    languages_url: `${url}/languages`,
    stargazers_url: `${url}/stargazers`,
    contributors_url: `${url}/contributors`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    commits_url: `${url}/commits{/sha}`,
    git_commits_url: `${url}/git/commits{/sha}`,
    comments_url: `${url}/comments{/number}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    contents_url: `${url}/contents/{+path}`,
    compare_url: `${url}/compare/{base}...{head}`,
    merges_url: `${url}/merges`,
    archive_url: `${url}/{archive_format}{/ref}`,
    downloads_url: `${url}/downloads`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    labels_url: `${url}/labels{/name}`,
    releases_url: `${url}/releases{/id}`,
    deployments_url: `${url}/deployments`,
    created_at: ctx.iso(-86_400_000 * 30),
    updated_at: ctx.iso(-60_000),
    pushed_at: ctx.iso(-1_000),
    git_url: `git://github.com/${fullName}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    clone_url: `${WEB}/${fullName}.git`,
    svn_url: `${WEB}/${fullName}`,
    homepage: null,
    size: 412,
    stargazers_count: 12,
    watchers_count: 12,
    language: 'TypeScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 1,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 2,
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT', url: `${API}/licenses/mit`, node_id: 'MDc6TGljZW5zZTEz' },
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: ['webhooks'],
    visibility: 'public',
    forks: 1,
    open_issues: 2,
    watchers: 12,
    default_branch: 'main',
  }
}

type Repository = ReturnType<typeof repository>

/** The people and the repository one payload talks about. */
function scene(ctx: FixtureContext) {
  const org = user(ctx, 'octo-org', 'Organization')
  const sender = user(ctx, 'octocat')
  return { sender, reviewer: user(ctx, 'hubot'), repo: repository(ctx, org, 'hello-world') }
}

function sha(ctx: FixtureContext): string {
  return ctx.id('', 40).toLowerCase().replace(/[g-z]/g, (c) => String(c.charCodeAt(0) % 10))
}

function reactions(url: string) {
  return { url: `${url}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 }
}

function pullRequest(ctx: FixtureContext, repo: Repository, author: User, number: number, closed: boolean) {
  const url = `${repo.url}/pulls/${number}`
  const html = `${repo.html_url}/pull/${number}`
  const issueUrl = `${repo.url}/issues/${number}`
  const headSha = sha(ctx)
  // A branch of the same repository: head and base name the repository of the payload.
  const side = (ref: string, sha: string) => ({ label: `${repo.owner.login}:${ref}`, ref, sha, user: repo.owner, repo })
  return {
    url,
    id: Number(ctx.digits(10)),
    node_id: `PR_kwDO${ctx.id('', 10)}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    number,
    state: closed ? 'closed' : 'open',
    locked: false,
    title: 'Retry webhooks with backoff',
    user: author,
    body: 'Adds exponential backoff to the webhook sender.',
    created_at: ctx.iso(-3_600_000),
    updated_at: ctx.iso(),
    closed_at: closed ? ctx.iso() : null,
    merged_at: closed ? ctx.iso() : null,
    merge_commit_sha: closed ? sha(ctx) : null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    labels: [],
    milestone: null,
    draft: false,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repo.url}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${repo.url}/statuses/${headSha}`,
    head: side('backoff', headSha),
    base: side(repo.default_branch, sha(ctx)),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${repo.url}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${repo.url}/statuses/${headSha}` },
    },
    author_association: 'MEMBER',
    auto_merge: null,
    active_lock_reason: null,
    merged: closed,
    mergeable: closed ? null : true,
    rebaseable: closed ? null : true,
    mergeable_state: closed ? 'unknown' : 'clean',
    merged_by: closed ? author : null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 1,
    additions: 42,
    deletions: 3,
    changed_files: 2,
  }
}

function issue(ctx: FixtureContext, repo: Repository, author: User, comments: number) {
  const number = Number(ctx.digits(3))
  const url = `${repo.url}/issues/${number}`
  return {
    url,
    repository_url: repo.url,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${repo.html_url}/issues/${number}`,
    id: Number(ctx.digits(10)),
    node_id: `I_kwDO${ctx.id('', 10)}`,
    number,
    title: 'Webhook deliveries time out',
    user: author,
    labels: [],
    state: 'open',
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments,
    created_at: ctx.iso(-60_000),
    updated_at: ctx.iso(),
    closed_at: null,
    author_association: 'MEMBER',
    active_lock_reason: null,
    body: 'Deliveries take longer than 10 s.',
    reactions: reactions(url),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: null,
  }
}

function pullRequestEvent(ctx: FixtureContext, action: 'opened' | 'closed') {
  const { sender, repo } = scene(ctx)
  const number = Number(ctx.digits(3))
  return { action, number, pull_request: pullRequest(ctx, repo, sender, number, action === 'closed'), repository: repo, sender }
}

// `as const`: each entry keeps its literal type, so test/unit/providers/catalog-types.test.ts can check
// each payload against the provider's published type by event type.
export const githubEvents = [
  {
    type: 'push',
    description: 'Commits were pushed to a branch.',
    // Schema: webhook-push.
    payload: (ctx) => {
      const { sender, repo } = scene(ctx)
      const before = sha(ctx)
      const after = sha(ctx)
      const person = { name: 'Mona Octocat', email: 'mona@example.com', date: ctx.iso(), username: sender.login }
      const commit = { id: after, tree_id: sha(ctx), distinct: true, message: 'Fix webhook retries', timestamp: ctx.iso(), url: `${repo.html_url}/commit/${after}`, author: person, committer: person, added: [], removed: [], modified: ['README.md'] }
      return {
        ref: 'refs/heads/main',
        before,
        after,
        created: false,
        deleted: false,
        forced: false,
        base_ref: null,
        compare: `${repo.html_url}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
        commits: [commit],
        head_commit: commit,
        pusher: { name: sender.login, email: 'mona@example.com' },
        repository: repo,
        sender,
      }
    },
  },
  // Schema: webhook-pull-request-opened.
  { type: 'pull_request.opened', description: 'A pull request was opened.', payload: (ctx) => pullRequestEvent(ctx, 'opened') },
  // Schema: webhook-pull-request-closed (merged: closed with merged true).
  { type: 'pull_request.closed', description: 'A pull request was merged (closed with merged: true).', payload: (ctx) => pullRequestEvent(ctx, 'closed') },
  {
    type: 'issues.opened',
    description: 'An issue was opened.',
    // Schema: webhook-issues-opened.
    payload: (ctx) => {
      const { sender, repo } = scene(ctx)
      return { action: 'opened', issue: issue(ctx, repo, sender, 0), repository: repo, sender }
    },
  },
  {
    type: 'issue_comment.created',
    description: 'A comment was added to an issue.',
    // Schema: webhook-issue-comment-created; the comment's issue_url is its issue's url.
    payload: (ctx) => {
      const { sender, reviewer, repo } = scene(ctx)
      const onIssue = issue(ctx, repo, sender, 1)
      const id = Number(ctx.digits(10))
      const url = `${repo.url}/issues/comments/${id}`
      return {
        action: 'created',
        issue: onIssue,
        comment: { url, html_url: `${onIssue.html_url}#issuecomment-${id}`, issue_url: onIssue.url, id, node_id: `IC_kwDO${ctx.id('', 10)}`, user: reviewer, created_at: ctx.iso(), updated_at: ctx.iso(), author_association: 'CONTRIBUTOR', body: 'Answering 202 first fixed it.', reactions: reactions(url), performed_via_github_app: null },
        repository: repo,
        sender: reviewer,
      }
    },
  },
  {
    type: 'release.published',
    description: 'A release was published.',
    // Schema: webhook-release-published.
    payload: (ctx) => {
      const { sender, repo } = scene(ctx)
      const id = Number(ctx.digits(9))
      const url = `${repo.url}/releases/${id}`
      return {
        action: 'published',
        release: { url, assets_url: `${url}/assets`, upload_url: `https://uploads.github.com/repos/${repo.full_name}/releases/${id}/assets{?name,label}`, html_url: `${repo.html_url}/releases/tag/v1.0.0`, id, author: sender, node_id: `RE_kwDO${ctx.id('', 10)}`, tag_name: 'v1.0.0', target_commitish: repo.default_branch, name: 'v1.0.0', draft: false, prerelease: false, immutable: false, created_at: ctx.iso(-60_000), updated_at: ctx.iso(), published_at: ctx.iso(), assets: [], tarball_url: `${repo.url}/tarball/v1.0.0`, zipball_url: `${repo.url}/zipball/v1.0.0`, body: 'First release.', reactions: reactions(url) },
        repository: repo,
        sender,
      }
    },
  },
] as const satisfies readonly CatalogEvent[]
