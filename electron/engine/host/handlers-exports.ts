// Selected deliveries and requests out as a file (HAR, cURL, case file), and a file's requests
// sent again to a URL or one of our endpoints.
import { roleAtLeast, type ExportFormat } from '../../../shared/contract'
import { exportSelection, ExportSelectionError, parseImportFile, replayItems } from '../exports'
import { IncidentConversionError, scenarioFromIncidentText } from '../scenarios'
import { principalName, principalRole } from './account-routes'
import type { Caller, CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'

const FILES = {
  har: { extension: 'har', mime: 'application/json' },
  curl: { extension: 'sh', mime: 'text/x-shellscript' },
  case: { extension: 'case.json', mime: 'application/json' },
} as const satisfies Record<ExportFormat, { extension: string; mime: string }>

/**
 * An export keeps the signing secrets and signature headers only for an admin: a viewer reads what
 * is kept (export.selection is a viewer's command), redacted as the inspector shows it, and a
 * secret is a credential, the admin's like a new signing secret (shared/contract/command-roles.ts).
 * Without accounts (the caller is the app) nothing is asked.
 */
function refuseKeptSecrets(caller: Caller): void {
  const principal = caller.token ? { account: null, token: caller.token } : caller.account ? { account: caller.account } : null
  if (!principal) return
  const role = principalRole(principal)
  if (!roleAtLeast(role, 'admin')) throw new HostError('forbidden', `export.selection with keepSecrets needs the admin role; ${principalName(principal)} is ${role === 'editor' ? 'an' : 'a'} ${role}`)
}

export function createExportHandlers(ctx: HandlerContext) {
  return {
    'export.selection': async (req, caller) => {
      if (req.keepSecrets) refuseKeptSecrets(caller)
      const { engine } = ctx.current()
      // exported_at is when the person made the file: wall time, whatever the engine's clock.
      let text: string
      try {
        text = await exportSelection(engine.store, { deliveryIds: req.deliveryIds, requestIds: req.requestIds, format: req.format, keepSecrets: req.keepSecrets, now: Date.now() })
      } catch (error) {
        // An id the store does not hold, or nothing selected: the asker's mistake, said as such.
        if (error instanceof ExportSelectionError) throw new HostError('bad_request', error.message)
        throw error
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')
      const file = FILES[req.format]
      return { text, fileName: `hookloop-${stamp}.${file.extension}`, mime: file.mime }
    },
    'import.replay': async (req) => {
      const { engine } = ctx.current()
      const parsed = parseImportFile(req.text)
      let to: string
      if ('url' in req.target) to = req.target.url
      else {
        const endpoint = engine.receiver.endpoints.get(req.target.endpointId)
        if (!endpoint) throw new HostError('not_found', `endpoint ${req.target.endpointId} does not exist`)
        to = engine.receiver.endpointUrl(endpoint.slug)
      }
      const results = await replayItems(parsed.items, { to, ...(req.resign ? { resign: { scheme: req.resign.scheme, secret: req.resign.secret } } : {}) })
      return { kind: parsed.kind, to, results }
    },
    'import.toScenario': (req) => {
      let made
      try {
        made = scenarioFromIncidentText(req.text, req.source ? { source: req.source } : {})
      } catch (error) {
        if (error instanceof IncidentConversionError) throw new HostError('bad_request', error.message)
        throw error
      }
      const base = (req.source ?? 'incident').replace(/\.(har|json)$/i, '').replace(/\.case$/i, '').replace(/[^A-Za-z0-9_.-]+/g, '-') || 'incident'
      return { text: made.text, fileName: `${base}.scenario.json`, kind: made.kind, events: made.events, resends: made.resends, expectations: made.expectations, notes: made.notes, secrets: made.secrets }
    },
  } satisfies Partial<CommandHandlers>
}
