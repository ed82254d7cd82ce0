// `hookloop workspace create|list|add-member`: the workspaces of a served Hookloop's store, on the
// server's machine (docs/team.md, "Workspaces"), without a browser: a workspace made with an
// existing account as its admin (the `workspace.create` command's checks and transaction), the
// workspaces listed with their members, an existing account made a member of one. Works on the
// store itself (a data folder or a team's PostgreSQL); each change is audited in its workspace as
// the command line's (`local`, via `cli`), as `hookloop resend` is.
import { LOCAL_ACTOR, ROLES, type CommandName } from '../../shared/contract'
import { AccountError, createAccounts, workspaceNameProblem } from '../engine/accounts'
import { auditSummary, auditTarget } from '../engine/host'
import { createAccountStore, createAuditStore, createWorkspaceStore, type MemberRow, type OpenedStore, type WorkspaceRow } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { formatTable, isoSeconds } from './table'
import { UsageError } from './usage-error'

/** The store opened, and how messages name it. */
type Store = OpenedStore & { where: string }

const USAGE = `Usage: hookloop workspace create NAME --admin EMAIL [--data DIR | --store STORE] [--json]
       hookloop workspace list [--data DIR | --store STORE] [--json]
       hookloop workspace add-member NAME --email EMAIL --role ROLE [--data DIR | --store STORE] [--json]

The workspaces of \`hookloop serve --accounts\` on this store: each holds its own endpoints,
subscriptions and history, and its members, each with a role there.
create: a new workspace named NAME (1 to 64 characters, no other workspace's), the existing
  account EMAIL its admin; its id is printed alone on stdout. Servers on this store see it at
  once: its admin switches to it in the app, and \`hookloop token create --workspace NAME\` makes
  its tokens. With --json: {"workspace": {...}}.
list: every workspace by name: its id, its members and admins, when it was made (\`default\`:
  with the store, createdAt 0). With --json:
  {"workspaces": [{"id", "name", "createdAt", "members": [{"id", "email", "name", "role", "disabled"}]}]}.
add-member: the existing account EMAIL becomes a member of the workspace NAME with ROLE. With
  --json: {"member": {...}}.
Each change is recorded in the workspace's audit as the command line's (\`local\`, via cli).
{options}
Exit status: 0 done, 1 a name taken, no such workspace or account, a member already, or a store
that cannot be opened, 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the served Hookloop's data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  admin: { type: 'string', value: 'EMAIL', help: "create: the account that becomes the new workspace's admin" },
  email: { type: 'string', value: 'EMAIL', help: 'add-member: the account that becomes a member' },
  role: { type: 'enum', values: ROLES, value: 'ROLE', help: 'add-member: its role in the workspace' },
  json: { type: 'boolean', help: 'one JSON document (docs/cli.md, "JSON output")' },
} as const satisfies OptionSpecs

const ACTIONS = ['create', 'list', 'add-member'] as const
type Action = (typeof ACTIONS)[number]

/** Which options each action takes; any other is a usage error. */
const TAKES: Record<Action, readonly (keyof typeof OPTIONS)[]> = { create: ['admin'], list: [], 'add-member': ['email', 'role'] }

export const workspaceCommand: Command = async (args) => {
  const [given, ...rest] = args
  if (given === undefined || given === '--help' || given === '-h') {
    commandArgs('workspace', USAGE, ['--help'], OPTIONS)
    return given === undefined ? 2 : 0
  }
  if (!(ACTIONS as readonly string[]).includes(given)) throw new UsageError(`workspace: unknown action "${given}" (actions: ${ACTIONS.join(', ')})`)
  const action = given as Action
  const parsed = commandArgs('workspace', USAGE, rest, OPTIONS, action === 'list' ? false : 'NAME')
  if (!parsed) return 0
  const v = parsed.values
  for (const option of ['admin', 'email', 'role'] as const) {
    if (v[option] !== undefined && !TAKES[action].includes(option)) throw new UsageError(`workspace: --${option} is for \`workspace ${ACTIONS.find((a) => TAKES[a].includes(option))}\``)
  }
  if (action === 'create' && v.admin === undefined) throw new UsageError('workspace: create needs --admin EMAIL (an existing account, its admin)')
  if (action === 'add-member' && (v.email === undefined || v.role === undefined)) throw new UsageError('workspace: add-member needs --email EMAIL and --role ROLE (viewer, editor or admin)')
  // The name workspace.create checks, checked the same way before the store is opened.
  const nameProblem = action === 'create' ? workspaceNameProblem(parsed.arg) : null
  if (nameProblem) throw new UsageError(`workspace: ${nameProblem}`)

  // Workspaces read no signing secret: a folder sealed with the app's keychain key opens too, and a
  // team store needs no data key.
  const store = await openStoreArg('workspace', v, { withoutSecrets: true })
  try {
    if (action === 'create') return await create(store, parsed.arg, v.admin ?? '', v.json)
    if (action === 'add-member') return await addMember(store, parsed.arg, v.email ?? '', v.role ?? 'viewer', v.json)
    const workspaces = createWorkspaceStore(store.engine)
    const listed = await Promise.all((await workspaces.list()).map(async (w) => entryOf(w, await workspaces.members(w.id))))
    if (v.json) process.stdout.write(JSON.stringify({ workspaces: listed }, null, 2) + '\n')
    else
      process.stdout.write(
        formatTable(
          ['NAME', 'ID', 'MEMBERS', 'ADMINS', 'CREATED'],
          listed.map((w) => [w.name, w.id, String(w.members.length), w.members.filter((m) => m.role === 'admin').map((m) => m.email).join(', ') || '-', w.createdAt > 0 ? isoSeconds(w.createdAt) : 'with the store']),
        ),
      )
    return 0
  } finally {
    await store.engine.close()
  }
}

interface WorkspaceEntry extends WorkspaceRow {
  members: { id: string; email: string; name: string; role: MemberRow['role']; disabled: boolean }[]
}

const entryOf = (w: WorkspaceRow, members: readonly MemberRow[]): WorkspaceEntry => ({
  ...w,
  members: members.map((m) => ({ id: m.accountId, email: m.email, name: m.name, role: m.role, disabled: m.disabled })),
})

/** The change in the workspace's audit, as the server's dispatch words it, made by the command line. */
async function audited(store: Store, workspaceId: string, command: CommandName, req: Record<string, unknown>, res: unknown): Promise<void> {
  const target = auditTarget(command, req, res)
  await createAuditStore(store.engine).record({ at: Date.now(), workspaceId, actorId: null, actor: LOCAL_ACTOR, via: 'cli', command, target, summary: auditSummary(command, req, target), detail: req })
}

async function create(store: Store, name: string, adminEmail: string, json: boolean): Promise<number> {
  const admin = await createAccountStore(store.engine).byEmail(adminEmail)
  if (!admin) {
    process.stderr.write(`hookloop: workspace: no account for ${adminEmail} in ${store.where}: its admin signs in once first (an invite, or \`hookloop serve --accounts --admin\` for the first)\n`)
    return 1
  }
  let made: WorkspaceRow
  try {
    made = await createAccounts({ engine: () => store.engine }).createWorkspace(name, admin.id)
  } catch (error) {
    if (!(error instanceof AccountError) || error.code !== 'taken') throw error
    process.stderr.write(`hookloop: workspace: ${error.message}\n`)
    return 1
  }
  await audited(store, made.id, 'workspace.create', { name: made.name, admin: admin.email }, made)
  if (json) process.stdout.write(JSON.stringify({ workspace: entryOf(made, await createWorkspaceStore(store.engine).members(made.id)) }, null, 2) + '\n')
  else {
    process.stdout.write(`${made.id}\n`)
    process.stderr.write(`hookloop: made the workspace "${made.name}" (${made.id}) in ${store.where}, ${admin.email} its admin: they switch to it in the app\n`)
  }
  return 0
}

async function addMember(store: Store, name: string, email: string, role: MemberRow['role'], json: boolean): Promise<number> {
  const workspace = await createWorkspaceStore(store.engine).byName(name)
  if (!workspace) {
    process.stderr.write(`hookloop: workspace: no workspace named "${name}" in ${store.where} (\`hookloop workspace list\` names them)\n`)
    return 1
  }
  let member
  try {
    member = await createAccounts({ engine: () => store.engine }).addMember(email, role, workspace.id)
  } catch (error) {
    if (!(error instanceof AccountError)) throw error
    process.stderr.write(`hookloop: workspace: ${error.message}\n`)
    return 1
  }
  await audited(store, workspace.id, 'member.add', { email: member.email, role }, member)
  if (json) process.stdout.write(JSON.stringify({ member }, null, 2) + '\n')
  else process.stderr.write(`hookloop: ${member.email} is now ${role === 'admin' ? 'an' : 'a'} ${role} of the workspace "${workspace.name}" (${workspace.id}) in ${store.where}\n`)
  return 0
}
