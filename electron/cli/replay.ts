// `hookloop replay FILE --to URL [--scheme S --secret K] [--json]`: sends the requests of a HAR
// 1.2 or case file again, re-signed when a scheme and secret are given. 0 every answer matches
// the original outcome, 1 one differs or fails, 2 bad usage or a broken file.
import { STAND_IN_SIGNATURE_NOTE } from '../../shared/contract'
import { SCHEMES } from '../../shared/signatures'
import { ImportError, parseImportFile, replayItems, type ReplayOptions } from '../engine/exports'
import { sign } from '../engine/signatures'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { SCHEME_OPTIONS, customOptions, requireScheme } from './signature-args'
import { readFileOrUsage, UsageError } from './usage-error'

const USAGE = `Usage: hookloop replay FILE --to URL [--scheme S --secret K] [--json]

Sends every request of a HAR 1.2 file or a Hookloop case file to URL, one after another, and
compares each answer with the original outcome. With --scheme and --secret each request is
signed again (old signature headers are dropped; the scheme's id header is kept, so it is the
same message to a deduper); one whose signature did not match when it arrived is signed with a
stand-in wrong secret instead, so the mismatch is reproduced (and said on stderr).
{options}
Exit status: 0 every answer matches the original, 1 one differs or fails, 2 bad usage or a broken file.`

const OPTIONS = {
  to: { type: 'string', value: 'URL', help: 'where to send (http:// or https://)' },
  ...SCHEME_OPTIONS,
  secret: { type: 'string', value: 'K', help: 'the secret to sign with' },
  json: { type: 'boolean', help: 'print the results as JSON' },
} as const satisfies OptionSpecs

export const replayCommand: Command = async (args) => {
  const parsed = commandArgs('replay', USAGE, args, OPTIONS, 'FILE')
  if (!parsed) return 0
  const { values: v, arg: file } = parsed
  if (!v.to || !/^https?:\/\/[^\s]+$/.test(v.to)) throw new UsageError(`replay: --to must be an http:// or https:// URL${v.to ? `, got "${v.to}"` : ''}`)
  if ((v.scheme === undefined) !== (v.secret === undefined)) throw new UsageError('replay: --scheme and --secret go together')

  let resign: ReplayOptions['resign']
  if (v.scheme !== undefined && v.secret !== undefined) {
    const scheme = requireScheme(v.scheme)
    const custom = customOptions(scheme, v)
    resign = { scheme, secret: v.secret, ...(custom ? { custom } : {}) }
  }
  const text = readFileOrUsage(file, (why) => `replay: cannot read ${file} (${why})`).toString('utf8')
  let items
  try {
    items = parseImportFile(text).items
  } catch (error) {
    if (error instanceof ImportError) throw new UsageError(`replay: ${file}: ${error.message}`)
    throw error
  }
  if (resign) {
    // An unusable secret (wrong format for the scheme) is bad usage: find out before anything is sent.
    try {
      sign(resign.scheme, { body: new Uint8Array(0), secret: resign.secret, url: v.to, ...(resign.custom ? { custom: resign.custom } : {}) })
    } catch (error) {
      throw new UsageError(`replay: cannot sign with ${SCHEMES[resign.scheme].label}: ${(error as Error).message}`)
    }
  }
  const results = await replayItems(items, { to: v.to, ...(resign ? { resign } : {}) })
  if (v.json) process.stdout.write(JSON.stringify({ ok: results.every((r) => r.same !== false && r.error === null), results }, null, 2) + '\n')
  else {
    for (const r of results) {
      const verdict = r.same === null ? '' : r.same ? ' (same)' : ` (was ${r.original_outcome})`
      process.stdout.write(`${r.same === false || r.error ? 'DIFF' : 'ok  '} ${r.label}: ${r.outcome}${verdict}${r.error ? ` — ${r.error}` : ''}\n`)
      if (r.signed_with_stand_in) process.stderr.write(`hookloop: ${r.label}: ${STAND_IN_SIGNATURE_NOTE}\n`)
      if (r.dropped_redacted.length > 0) process.stderr.write(`hookloop: ${r.label}: dropped redacted header(s) ${r.dropped_redacted.join(', ')} (give --scheme and --secret to re-sign)\n`)
    }
  }
  return results.every((r) => r.same !== false && r.error === null) ? 0 : 1
}
