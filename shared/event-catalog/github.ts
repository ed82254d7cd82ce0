import type { CatalogEvent, FixtureContext } from './types'

// GitHub: the payload is the whole body. Event types are `X-GitHub-Event` plus the body's action
// (`pull_request.opened`); shapes follow docs.github.com "Webhook events and payloads".

function user(ctx: FixtureContext, login: string) {
  const id = Number(ctx.digits(8))
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${ctx.id('', 6)}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
    type: 'User',
    site_admin: false,
  }
}

function repository(ctx: FixtureContext) {
  const owner = user(ctx, 'octo-org')
  return {
    id: Number(ctx.digits(9)),
    node_id: `R_kgDO${ctx.id('', 8)}`,
    name: 'hello-world',
    full_name: 'octo-org/hello-world',
    private: false,
    owner,
    html_url: 'https://github.com/octo-org/hello-world',
    description: 'A repository receiving Hookloop webhooks',
    fork: false,
    url: 'https://api.github.com/repos/octo-org/hello-world',
    created_at: ctx.iso(-86_400_000 * 30),
    updated_at: ctx.iso(-60_000),
    pushed_at: ctx.iso(-1_000),
    default_branch: 'main',
    visibility: 'public',
  }
}

const sender = (ctx: FixtureContext) => user(ctx, 'octocat')

function sha(ctx: FixtureContext): string {
  return ctx.id('', 40).toLowerCase().replace(/[g-z]/g, (c) => String(c.charCodeAt(0) % 10))
}

function pullRequest(ctx: FixtureContext, state: 'open' | 'closed', merged: boolean) {
  const number = Number(ctx.digits(3))
  return {
    url: `https://api.github.com/repos/octo-org/hello-world/pulls/${number}`,
    id: Number(ctx.digits(10)),
    number,
    state,
    locked: false,
    title: 'Retry webhooks with backoff',
    user: user(ctx, 'octocat'),
    body: 'Adds exponential backoff to the webhook sender.',
    created_at: ctx.iso(-3_600_000),
    updated_at: ctx.iso(),
    closed_at: state === 'closed' ? ctx.iso() : null,
    merged_at: merged ? ctx.iso() : null,
    merged,
    draft: false,
    html_url: `https://github.com/octo-org/hello-world/pull/${number}`,
    head: { label: 'octocat:backoff', ref: 'backoff', sha: sha(ctx) },
    base: { label: 'octo-org:main', ref: 'main', sha: sha(ctx) },
  }
}

// `as const`: each entry keeps its literal type, so test/unit/providers/catalog-types.test.ts can check
// each payload against the provider's published type by event type.
export const githubEvents = [
  {
    type: 'push',
    description: 'Commits were pushed to a branch.',
    payload: (ctx) => {
      const after = sha(ctx)
      return {
        ref: 'refs/heads/main',
        before: sha(ctx),
        after,
        created: false,
        deleted: false,
        forced: false,
        compare: 'https://github.com/octo-org/hello-world/compare/main',
        commits: [{ id: after, tree_id: sha(ctx), distinct: true, message: 'Fix webhook retries', timestamp: ctx.iso(), url: `https://github.com/octo-org/hello-world/commit/${after}`, author: { name: 'Mona Octocat', email: 'mona@example.com', username: 'octocat' }, committer: { name: 'Mona Octocat', email: 'mona@example.com', username: 'octocat' }, added: [], removed: [], modified: ['README.md'] }],
        head_commit: null,
        pusher: { name: 'octocat', email: 'mona@example.com' },
        repository: repository(ctx),
        sender: sender(ctx),
      }
    },
  },
  { type: 'pull_request.opened', description: 'A pull request was opened.', payload: (ctx) => ({ action: 'opened', number: 1, pull_request: pullRequest(ctx, 'open', false), repository: repository(ctx), sender: sender(ctx) }) },
  { type: 'pull_request.closed', description: 'A pull request was merged (closed with merged: true).', payload: (ctx) => ({ action: 'closed', number: 1, pull_request: pullRequest(ctx, 'closed', true), repository: repository(ctx), sender: sender(ctx) }) },
  {
    type: 'issues.opened',
    description: 'An issue was opened.',
    payload: (ctx) => {
      const number = Number(ctx.digits(3))
      return {
        action: 'opened',
        issue: { url: `https://api.github.com/repos/octo-org/hello-world/issues/${number}`, id: Number(ctx.digits(10)), number, title: 'Webhook deliveries time out', user: user(ctx, 'octocat'), state: 'open', locked: false, labels: [], comments: 0, created_at: ctx.iso(), updated_at: ctx.iso(), closed_at: null, body: 'Deliveries take longer than 10 s.', html_url: `https://github.com/octo-org/hello-world/issues/${number}` },
        repository: repository(ctx),
        sender: sender(ctx),
      }
    },
  },
  {
    type: 'issue_comment.created',
    description: 'A comment was added to an issue.',
    payload: (ctx) => {
      const number = Number(ctx.digits(3))
      return {
        action: 'created',
        issue: { url: `https://api.github.com/repos/octo-org/hello-world/issues/${number}`, id: Number(ctx.digits(10)), number, title: 'Webhook deliveries time out', user: user(ctx, 'octocat'), state: 'open', locked: false, labels: [], comments: 1, created_at: ctx.iso(-60_000), updated_at: ctx.iso(), closed_at: null, body: null, html_url: `https://github.com/octo-org/hello-world/issues/${number}` },
        comment: { id: Number(ctx.digits(10)), body: 'Answering 202 first fixed it.', user: user(ctx, 'hubot'), created_at: ctx.iso(), updated_at: ctx.iso(), html_url: `https://github.com/octo-org/hello-world/issues/${number}#issuecomment-1` },
        repository: repository(ctx),
        sender: sender(ctx),
      }
    },
  },
  {
    type: 'release.published',
    description: 'A release was published.',
    payload: (ctx) => ({
      action: 'published',
      release: { url: 'https://api.github.com/repos/octo-org/hello-world/releases/1', id: Number(ctx.digits(9)), tag_name: 'v1.0.0', target_commitish: 'main', name: 'v1.0.0', draft: false, prerelease: false, created_at: ctx.iso(-60_000), published_at: ctx.iso(), author: user(ctx, 'octocat'), body: 'First release.', html_url: 'https://github.com/octo-org/hello-world/releases/tag/v1.0.0', assets: [] },
      repository: repository(ctx),
      sender: sender(ctx),
    }),
  },
] as const satisfies readonly CatalogEvent[]
