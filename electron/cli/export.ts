// `hookloop export [--data DIR] --format har|curl|case [--requests IDS] [--deliveries IDS]
// [--keep-secrets] [--out FILE]`: selected requests and deliveries as HAR 1.2, cURL commands or
// a Hookloop case file; secrets and signature headers redacted unless --keep-secrets.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/exports'
import { exportSelection, ExportSelectionError } from '../engine/exports'
import { openDatabase } from '../engine/store'
import { commandArgs } from './command-args'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'
import type { Command } from './commands'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop export [--data DIR] --format har|curl|case [--requests IDS] [--deliveries IDS] [--keep-secrets] [--out FILE]

Exports captured requests and sender deliveries (every attempt) for support and other tools.
  --data DIR        the Hookloop data folder (DIR/hookloop.db; ${DATA_DIR_DEFAULT_HELP})
  --format F        har (HAR 1.2), curl (a bash script of curl commands) or case (Hookloop case file)
  --requests IDS    captured request ids, comma-separated (e.g. 12,13,20-24)
  --deliveries IDS  delivery ids, comma-separated
  --keep-secrets    keep secrets and signature headers (redacted by default)
  --out FILE        write to FILE (default: stdout)
Exit status: 0 written, 2 bad usage or an id that is not in the data folder.`

/** "1,2,5-7" → [1, 2, 5, 6, 7]. */
export function parseIdList(text: string, name: string): number[] {
  const ids: number[] = []
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const range = /^(\d{1,12})(?:-(\d{1,12}))?$/.exec(part)
    if (!range) throw new UsageError(`export: --${name} takes ids like 12,13,20-24; "${part}" is not one`)
    const from = Number(range[1])
    const to = range[2] === undefined ? from : Number(range[2])
    if (to < from || to - from > 100_000) throw new UsageError(`export: --${name} range ${part} is backwards or too long`)
    for (let id = from; id <= to; id++) ids.push(id)
  }
  return ids
}

export const exportCommand: Command = async (args) => {
  const parsed = commandArgs('export', USAGE, args, {
    data: { type: 'string' },
    format: { type: 'string' },
    requests: { type: 'string' },
    deliveries: { type: 'string' },
    'keep-secrets': { type: 'boolean', default: false },
    out: { type: 'string' },
  })
  if (!parsed) return 0
  const v = parsed.values
  if (!v.format) throw new UsageError('export: --format is required (hookloop export --help)')
  if (!(EXPORT_FORMATS as readonly string[]).includes(v.format)) throw new UsageError(`export: --format must be one of ${EXPORT_FORMATS.join(', ')}, got "${v.format}"`)
  const requestIds = v.requests === undefined ? [] : parseIdList(v.requests, 'requests')
  const deliveryIds = v.deliveries === undefined ? [] : parseIdList(v.deliveries, 'deliveries')
  if (requestIds.length + deliveryIds.length === 0) throw new UsageError('export: select something with --requests and/or --deliveries')
  const { file } = existingStoreFile('export', v.data)

  const db = openDatabase({ file })
  let text: string
  try {
    text = exportSelection(db, { format: v.format as ExportFormat, requestIds, deliveryIds, keepSecrets: v['keep-secrets'], now: Date.now(), version: process.env.npm_package_version ?? '0.1.0' })
  } catch (error) {
    if (error instanceof ExportSelectionError) throw new UsageError(`export: ${error.message}`)
    throw error
  } finally {
    db.close()
  }
  if (v.out) {
    mkdirSync(dirname(resolve(v.out)), { recursive: true })
    writeFileSync(v.out, text, { mode: v['keep-secrets'] ? 0o600 : 0o644 })
    if (v['keep-secrets']) process.stderr.write(`hookloop: ${v.out} holds secrets and signatures (--keep-secrets): share it with care\n`)
  } else {
    process.stdout.write(text)
  }
  return 0
}
