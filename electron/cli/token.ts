// `hookloop token create|list|revoke`: the API tokens of a served Hookloop's store, made on the
// server's machine (docs/team.md, "Tokens"), for CI or a script to use against it. Works on the
// store itself (a data folder or a team's PostgreSQL), so an admin needs no browser for CI's
// token. The secret is printed once, on stdout only; the store keeps its hash.
import { ROLES } from '../../shared/contract'
import { createTokens, TokenError, tokenNameProblem, type TokenView } from '../engine/accounts'
import { createWorkspaceStore, DEFAULT_WORKSPACE } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { formatTable, isoSeconds } from './table'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop token create --name NAME --role ROLE [--workspace NAME] [--data DIR | --store STORE] [--json]
       hookloop token list [--data DIR | --store STORE] [--json]
       hookloop token revoke ID [--data DIR | --store STORE] [--json]

The API tokens machines use against \`hookloop serve --accounts\` on this store (CI, scripts,
\`hookloop mcp\`): each is sent as \`Authorization: Bearer hlk_…\` and acts with its role.
create: a new token; its secret is printed once, alone on stdout (nothing else is), and never
  again: the store keeps its SHA-256. It acts in one workspace (--workspace, by name; default
  \`default\`) with its role there. With --json: {"token": {...}, "secret": "hlk_…"}.
list: every token, revoked ones too, newest first: its id, name, workspace, role, the first characters of
  its secret, when and by whom it was made, its last use (written at most once a minute) and when
  it was revoked. With --json: {"tokens": [...]}.
revoke: the token admits nobody from now on: every server on this store refuses it within a second.
{options}
Exit status: 0 done, 1 no such token or a store that cannot be opened, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the served Hookloop's data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  name: { type: 'string', value: 'NAME', help: 'create: what uses the token ("GitHub Actions"), up to 100 characters' },
  role: { type: 'enum', values: ROLES, value: 'ROLE', help: 'create: what the token may do, as the role of a person' },
  workspace: { type: 'string', value: 'NAME', help: 'create: the workspace the token acts in (default: default)' },
  json: { type: 'boolean', help: 'one JSON document (docs/cli.md, "JSON output")' },
} as const satisfies OptionSpecs

const ACTIONS = ['create', 'list', 'revoke'] as const

export const tokenCommand: Command = async (args) => {
  const [action, ...rest] = args
  if (action === undefined || action === '--help' || action === '-h') {
    commandArgs('token', USAGE, ['--help'], OPTIONS)
    return action === undefined ? 2 : 0
  }
  if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`token: unknown action "${action}" (actions: ${ACTIONS.join(', ')})`)
  const parsed = commandArgs('token', USAGE, rest, OPTIONS, action === 'revoke' ? 'ID' : false)
  if (!parsed) return 0
  const v = parsed.values
  if (action !== 'create' && (v.name !== undefined || v.role !== undefined || v.workspace !== undefined)) throw new UsageError(`token: --name, --role and --workspace are for \`token create\``)
  if (action === 'create' && (v.name === undefined || v.role === undefined)) throw new UsageError('token: create needs --name NAME and --role ROLE (viewer, editor or admin)')
  const nameProblem = action === 'create' ? tokenNameProblem(v.name ?? '') : null
  if (nameProblem) throw new UsageError(`token: ${nameProblem}`)
  if (action === 'list' && parsed.positionals.length > 0) throw new UsageError(`token: list takes no argument, got "${parsed.positionals[0]}"`)

  // Tokens read no signing secret: a folder sealed with the app's keychain key opens too, and a
  // team store needs no data key.
  const store = await openStoreArg('token', v, { withoutSecrets: true })
  try {
    const tokens = createTokens({ engine: () => store.engine })
    const workspaces = createWorkspaceStore(store.engine)
    if (action === 'create') {
      const workspace = await workspaces.byName(v.workspace ?? DEFAULT_WORKSPACE)
      if (!workspace) {
        process.stderr.write(`hookloop: token: no workspace named "${v.workspace ?? DEFAULT_WORKSPACE}" in ${store.where}\n`)
        return 1
      }
      let made: { token: TokenView; secret: string }
      try {
        made = await tokens.create({ name: v.name ?? '', role: v.role ?? 'viewer', workspaceId: workspace.id, by: null })
      } catch (error) {
        if (error instanceof TokenError) throw new UsageError(`token: ${error.message}`)
        throw error
      }
      if (v.json) process.stdout.write(JSON.stringify({ token: made.token, secret: made.secret }, null, 2) + '\n')
      else {
        process.stdout.write(`${made.secret}\n`)
        process.stderr.write(
          `hookloop: made the ${made.token.role} token "${made.token.name}" (${made.token.id}) of the workspace "${workspace.name}" in ${store.where}. Its secret is the line above, shown this once: keep it in your CI's secrets, as HOOKLOOP_TOKEN.\n`,
        )
      }
      return 0
    }
    if (action === 'list') {
      const list = await tokens.list()
      if (v.json) process.stdout.write(JSON.stringify({ tokens: list }, null, 2) + '\n')
      else if (list.length === 0) process.stderr.write(`hookloop: no tokens in ${store.where}\n`)
      else {
        const names = new Map((await workspaces.list()).map((w) => [w.id, w.name]))
        process.stdout.write(formatTable(['ID', 'NAME', 'WORKSPACE', 'ROLE', 'TOKEN', 'CREATED', 'BY', 'LAST USED', 'REVOKED'], list.map((t) => row(t, names.get(t.workspaceId) ?? t.workspaceId))))
      }
      return 0
    }
    let revoked: TokenView
    try {
      revoked = await tokens.revoke(parsed.arg)
    } catch (error) {
      if (!(error instanceof TokenError)) throw error
      process.stderr.write(`hookloop: token: no token ${parsed.arg} in ${store.where} (\`hookloop token list\` names them)\n`)
      return 1
    }
    if (v.json) process.stdout.write(JSON.stringify({ token: revoked }, null, 2) + '\n')
    else process.stderr.write(`hookloop: revoked the token "${revoked.name}" (${revoked.id}): every server on this store refuses it within a second\n`)
    return 0
  } finally {
    await store.engine.close()
  }
}

const row = (t: TokenView, workspace: string): string[] => [
  t.id,
  t.name,
  workspace,
  t.role,
  `${t.prefix}…`,
  isoSeconds(t.createdAt),
  t.createdByEmail ?? (t.createdBy === null ? '(command line)' : t.createdBy),
  t.lastUsedAt === null ? 'never' : isoSeconds(t.lastUsedAt),
  t.revokedAt === null ? '-' : isoSeconds(t.revokedAt),
]
