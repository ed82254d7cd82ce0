// exportSelection: the one entry point — selected requests and deliveries out of a store (a data
// folder or a team's PostgreSQL: the same text from either), in a format, redacted unless asked
// not to. Returns the file's text.
import type { ExportFormat, ExportSelection } from '../../../shared/contract'
import { toCaseFile } from './case-file'
import { collectSelection, ExportSelectionError, type Collected, type CollectProgress } from './collect'
import { toCurlScript } from './curl'
import { toExchanges } from './exchange'
import { toHar } from './har'
import { createRedactor } from './redact'
import { createExportReads, type OpenedStore } from '../store'

export interface ExportOptions extends ExportSelection {
  format: ExportFormat
  /** Stamped into the case file (exported_at). */
  now: number
  /** Hookloop's version, for HAR's creator (default: HOOKLOOP_VERSION). */
  version?: string
  /** Called as the selection is read: rows read of all selected. */
  onProgress?: CollectProgress
}

/**
 * The version a HAR names as its creator: the package's when npm runs Hookloop, else this release.
 * One default, so `hookloop export` and a served Hookloop (the app's Export, `export --server`)
 * write the same file.
 */
export const HOOKLOOP_VERSION = process.env.npm_package_version ?? '0.1.0'

/** Every secret the involved definitions hold (signing, verifying, retired). */
function knownSecrets(collected: Collected): string[] {
  const out: string[] = []
  for (const { endpoint } of collected.endpoints) out.push(...endpoint.secrets)
  for (const sub of collected.subscriptions) out.push(...(JSON.parse(sub.secrets_json) as string[]))
  return out
}

/**
 * The export of `store` (openStore's, or storeOfDatabase of an open data folder). It needs the
 * store's data key even when secrets are redacted: redaction finds each signing secret by value.
 */
export async function exportSelection(store: OpenedStore, options: ExportOptions): Promise<string> {
  if ((options.requestIds?.length ?? 0) + (options.deliveryIds?.length ?? 0) === 0) throw new ExportSelectionError('nothing selected: give request ids and/or delivery ids')
  const collected = await collectSelection(createExportReads(store.engine, store.secrets), options, options.onProgress)
  const custom = collected.endpoints.map((e) => e.endpoint.custom?.header).filter((h): h is string => h !== undefined)
  const redactor = createRedactor({ keepSecrets: options.keepSecrets === true, secrets: knownSecrets(collected), customSignatureHeaders: custom })
  let text: string
  switch (options.format) {
    case 'har':
      text = JSON.stringify(toHar(toExchanges(collected), redactor, options.version ?? HOOKLOOP_VERSION), null, 2)
      break
    case 'curl':
      text = toCurlScript(toExchanges(collected), redactor)
      break
    case 'case':
      text = JSON.stringify(toCaseFile(collected, redactor, options.now), null, 2)
      break
    default: {
      const never: never = options.format
      throw new Error(`unknown export format ${String(never)}`)
    }
  }
  return redactor.text(text) + '\n'
}
