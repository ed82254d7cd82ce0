// `hookloop prune [--data DIR | --store STORE] [--older-than AGE] [--max-mb N] [--endpoint SLUG]
// [--all] [--save] [--json]`: deletes history (captured requests, settled deliveries) from a data
// folder or a team's PostgreSQL store, in the same small batches the app's retention uses, then
// gives the freed space back. Without a limit it applies the store's saved retention (what the
// app, `hookloop serve` and `hookloop listen` apply every minute).
import { formatBytes, type PruneResult, type RetentionSettings } from '../../shared/contract'
import { createRealClock } from '../engine/clock'
import { createRetention, checkRetention, RetentionBusyError, retentionPlan, type PrunePlan } from '../engine/retention'
import { createHistoryStore } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import type { Command } from './commands'
import { stderrProgress } from './progress'
import { openStoreArg, STORE_OPTION } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop prune [--data DIR | --store STORE] [--older-than AGE] [--max-mb N] [--endpoint SLUG] [--all] [--save] [--json]

Deletes history, oldest first, in small batches, then gives the space back: captured requests,
and settled deliveries (succeeded or failed) with their attempts and events. A delivery still
pending or retrying is never deleted; --endpoint covers that endpoint's requests only.
{options}
Without --older-than, --max-mb or --all: applies the store's saved retention (default 30 days, 1024 MB).
MB: on a data folder, the file's pages in use; on a team's PostgreSQL, the bytes the history's
bodies, headers, answers and payloads take on the server (docs/cli.md, "Pruning a store").
One pass at a time per team store: while another runs there, prune says so and exits 1.
Progress goes to stderr while it is a terminal.
Exit status: 0 pruned (or nothing to prune), 1 the store could not be pruned (or another pass runs on it), 2 bad usage or an endpoint not in the store.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  'older-than': { type: 'string', value: 'AGE', help: 'history older than AGE: 30d, 12h, 45m, 90s or 2w' },
  'max-mb': { type: 'number', whole: true, min: 0, max: 9_999_999, value: 'N', help: 'oldest history until the store holds at most N MB' },
  endpoint: { type: 'string', value: 'SLUG', help: "only this endpoint's requests (with --older-than or --all)" },
  all: { type: 'boolean', help: "everything settled (Clear history); with --endpoint, that endpoint's requests" },
  save: { type: 'boolean', help: "keep --older-than (whole days) and --max-mb as the store's retention" },
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies OptionSpecs

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** "30d" → ms; a bare number is days. */
export function parseAge(text: string): number {
  const match = /^(\d{1,6})([smhdw]?)$/.exec(text.trim())
  if (!match) throw new UsageError(`prune: --older-than takes an age like 30d, 12h, 45m, 90s or 2w; "${text}" is not one`)
  return Number(match[1]) * UNIT_MS[match[2] || 'd']!
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : word.endsWith('ch') ? 'es' : 's'}`

/** What a prune did and what the store holds now, in one line (also `hookloop listen`'s log). */
export function describePrune(result: PruneResult): string {
  const size = result.size
  const parts = [
    ...(result.deleted > 0 ? [plural(result.deleted, 'request')] : []),
    ...(result.deliveries > 0 ? [`${result.deliveries} settled deliver${result.deliveries === 1 ? 'y' : 'ies'} (${plural(result.attempts, 'attempt')})`] : []),
    ...(result.events > 0 ? [plural(result.events, 'event')] : []),
  ]
  const what = parts.length === 0 ? 'Nothing to prune.' : `Pruned ${parts.join(', ')} (${formatBytes(result.bytes)}) in ${plural(result.batches, 'batch')}.`
  return `${what} Store: ${formatBytes(size.usedBytes)} used of ${formatBytes(size.fileBytes)}, WAL ${formatBytes(size.walBytes)}, ${size.requests} request${size.requests === 1 ? '' : 's'} kept.`
}

export const pruneCommand: Command = async (args) => {
  const parsed = commandArgs('prune', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const v = parsed.values
  const olderThanMs = v['older-than'] === undefined ? undefined : parseAge(v['older-than'])
  const maxMb = v['max-mb']
  if (v.all && (olderThanMs !== undefined || maxMb !== undefined)) throw new UsageError('prune: --all deletes everything; leave out --older-than and --max-mb')
  if (v.endpoint !== undefined && maxMb !== undefined) throw new UsageError('prune: --max-mb is a limit on the whole store; it does not take --endpoint')
  if (v.endpoint !== undefined && !v.all && olderThanMs === undefined) throw new UsageError('prune: --endpoint needs --older-than or --all')
  let saved: RetentionSettings | undefined
  if (v.save) {
    if (v.all || v.endpoint !== undefined) throw new UsageError('prune: --save keeps a retention for the whole store; it does not take --all or --endpoint')
    if (olderThanMs === undefined && maxMb === undefined) throw new UsageError('prune: --save needs --older-than and/or --max-mb')
    if (olderThanMs !== undefined && olderThanMs % UNIT_MS.d! !== 0) throw new UsageError('prune: --save keeps whole days: give --older-than like 30d')
    try {
      saved = checkRetention({ days: olderThanMs === undefined ? null : olderThanMs / UNIT_MS.d!, maxMb: maxMb ?? null })
    } catch (error) {
      throw new UsageError(`prune: ${(error as Error).message}`)
    }
  }

  // Pruning reads no secret: a folder whose secrets are sealed with the app's keychain key opens
  // too, and a team store needs no data key.
  const store = await openStoreArg('prune', v, { withoutSecrets: true })
  const clock = createRealClock()
  const retention = createRetention({ engine: store.engine, clock, timers: clock, firstPassMs: 2 ** 31 - 1 })
  const history = createHistoryStore(store.engine)
  try {
    let endpointId: string | undefined
    if (v.endpoint !== undefined) {
      endpointId = await history.endpointIdOf(v.endpoint)
      if (endpointId === undefined) throw new UsageError(`prune: no endpoint "${v.endpoint}" in ${store.where}`)
    }
    if (saved) await history.setRetention(saved)
    // Asked for by a person who wants the space back: every freed page goes back.
    const plan: PrunePlan = {
      giveBack: 'all',
      ...(v.all ? { all: true } : {}),
      ...(endpointId === undefined ? {} : { endpointId }),
      ...(olderThanMs === undefined ? {} : { olderThanMs }),
      ...(maxMb === undefined ? {} : { maxBytes: maxMb * 1_000_000 }),
    }
    const explicit = v.all || olderThanMs !== undefined || maxMb !== undefined
    // Requests are what a store mostly holds: progress counts them against those stored at the start.
    const stored = (await retention.size()).requests
    const progress = stderrProgress('prune')
    const onBatch = (soFar: { deleted: number; deliveries: number }) => progress.update(soFar.deleted, stored, `requests deleted${soFar.deliveries > 0 ? `, ${soFar.deliveries} deliveries` : ''}`)
    let result: PruneResult
    try {
      result = await retention.prune(explicit ? { ...plan, onBatch } : { ...retentionPlan(await history.retention()), giveBack: 'all', onBatch })
    } catch (error) {
      if (!(error instanceof RetentionBusyError)) throw error
      process.stderr.write(`hookloop: prune: ${error.message}\n`)
      return 1
    } finally {
      progress.end()
    }
    process.stdout.write(v.json ? JSON.stringify(result, null, 2) + '\n' : describePrune(result) + '\n')
    return 0
  } finally {
    await retention.stop()
    await store.engine.close()
  }
}
