// `hookloop audit [--data DIR | --store STORE] [--since T] [--actor EMAIL] [--command NAME]
// [--limit N] [--json]`: who changed what in a data folder or a team store, and when, newest
// first (docs/team.md, "Audit"). The entries are read as stored: every secret already redacted.
import { createAuditStore } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import type { Command } from './commands'
import { DEFAULT_LIST_LIMIT } from './list-command'
import { LIMIT_OPTION, parseSince } from './list-filters'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { formatTable, isoSeconds } from './table'

const USAGE = `Usage: hookloop audit [--data DIR | --store STORE] [--since T] [--actor EMAIL] [--command NAME] [--limit N] [--json]

Lists the changes made to a data folder (or a team's store: --store), newest first: who made each
one (an account's address, or local without accounts), how (session, token, cli, app), the
command and what it named. AT is the wall time of the change. Details never hold a secret. With
--json: {"audit": [...], "total": N}, each entry with its detail.
{options}
Exit status: 0 listed (none is not an error), 2 bad usage.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the Hookloop data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  since: { type: 'string', value: 'T', help: 'changes from T on: a duration back from now (90s, 15m, 2h, 7d, 2w) or an ISO time' },
  actor: { type: 'string', value: 'EMAIL', help: "one account's changes (any case), or local" },
  command: { type: 'string', value: 'NAME', help: 'one command, e.g. rule.update or account.join' },
  limit: { ...LIMIT_OPTION, default: DEFAULT_LIST_LIMIT },
  json: { type: 'boolean', help: 'one JSON document (docs/cli.md, "JSON output")' },
} as const satisfies OptionSpecs

export const auditCommand: Command = async (args) => {
  const parsed = commandArgs('audit', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const since = v.since === undefined ? undefined : parseSince('audit', v.since, Date.now())
  // The audit holds no secret: a folder sealed with the app's keychain key opens too.
  const store = await openStoreArg('audit', v, { withoutSecrets: true })
  try {
    const { entries, total } = await createAuditStore(store.engine).list(
      { ...(v.actor === undefined ? {} : { actor: v.actor }), ...(v.command === undefined ? {} : { command: v.command }), ...(since === undefined ? {} : { since }) },
      0,
      v.limit,
    )
    if (v.json) process.stdout.write(JSON.stringify({ audit: entries, total }, null, 2) + '\n')
    else if (entries.length === 0) process.stderr.write('hookloop: no changes match\n')
    else
      process.stdout.write(
        formatTable(
          ['AT', 'ACTOR', 'VIA', 'COMMAND', 'TARGET', 'SUMMARY'],
          entries.map((e) => [isoSeconds(e.at), e.actor, e.via, e.command, e.target ? `${e.target.kind} ${e.target.id}` : '-', e.summary]),
        ),
      )
    return 0
  } finally {
    await store.engine.close()
  }
}
