// Runs a scenario file for a UI, the way `hookloop run` does (same validator, same runScenario on
// a fresh engine and temp store of its own), and reports progress while it runs: deliveries
// settled out of those the scenario makes, read from the run's own store every quarter second.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import type { ScenarioRunView } from '../../../shared/contract'
import type { Scenario } from '../../../shared/scenario'
import { formatProblem, parseScenarioWithSecrets } from '../../../shared/scenario'
import { DATA_FILE_NAME, openReader, createDeliveryStatements, type DeliveryStatements } from '../store'
import { runScenario } from '../scenarios'
import { createContractSchemas } from '../contracts'
import type { RunTunnelOptions } from '../scenarios'
import { HostError } from './host-error'

export interface ScenarioRunsOptions {
  publish(view: ScenarioRunView): void
  nativeBinding?: string
  /** The app's own tunnel settings while it is on: a scenario with `tunnel` uses its tunnel server. */
  tunnel?: () => RunTunnelOptions | undefined
}

export interface ScenarioRuns {
  start(text: string): ScenarioRunView
  cancel(runId: number): boolean
  current(): ScenarioRunView | null
  close(): Promise<void>
}

/** Deliveries the scenario will make: one per event and subscription, plus each duplicate's copy. */
export function plannedDeliveries(scenario: Scenario): number {
  let total = 0
  scenario.events.forEach((event) => {
    const targets = event.subscriptions?.length ?? scenario.subscriptions.length
    total += targets * (1 + event.faults.filter((f) => f.type === 'duplicate').length)
  })
  return total
}

export function createScenarioRuns(options: ScenarioRunsOptions): ScenarioRuns {
  let nextId = 1
  let view: ScenarioRunView | null = null
  let controller: AbortController | null = null
  let running: Promise<void> = Promise.resolve()

  const update = (next: ScenarioRunView) => {
    view = next
    options.publish(next)
  }

  return {
    current: () => view,
    start(text) {
      if (view?.state === 'running') throw new HostError('conflict', `scenario "${view.name}" is still running; stop it first`)
      // A file made from an incident holds `${NAME}` secret placeholders: filled from the app's environment, as `hookloop run` does.
      const parsed = parseScenarioWithSecrets(text, (name) => process.env[name])
      if (!parsed.ok) throw new HostError('bad_request', `the scenario is not valid: ${parsed.problems.slice(0, 5).map(formatProblem).join('; ')}`)
      const scenario = parsed.scenario
      const runId = nextId++
      const dir = mkdtempSync(join(tmpdir(), 'hookloop-ui-run-'))
      const abort = new AbortController()
      controller = abort
      const base = { runId, name: scenario.name, total: plannedDeliveries(scenario), report: null, error: null }
      update({ ...base, state: 'running', settled: 0 })

      // Progress from the run's own store (WAL: a reader beside the run's writer).
      let reader: Database | null = null
      let deliveries: DeliveryStatements | null = null
      const poll = setInterval(() => {
        try {
          reader ??= openReader(join(dir, DATA_FILE_NAME), options.nativeBinding)
          deliveries ??= createDeliveryStatements(reader)
          const row = deliveries.progress()
          if (view?.runId === runId && view.state === 'running' && (row.settled !== view.settled || row.made > view.total)) {
            update({ ...view, settled: row.settled, total: Math.max(view.total, row.made) })
          }
        } catch {
          // The store is not there yet, or is being closed: the next tick tries again.
        }
      }, 250)

      const tunnel = scenario.tunnel === undefined ? undefined : options.tunnel?.()
      running = runScenario(scenario, {
        dataDir: dir,
        signal: abort.signal,
        file: null,
        contractSchemas: createContractSchemas(),
        ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
        ...(tunnel === undefined ? {} : { tunnel }),
      }).then(
        (report) => {
          const settled = report.deliveries.filter((d) => d.status === 'succeeded' || d.status === 'failed').length
          update({ ...base, total: Math.max(base.total, report.deliveries.length), state: 'done', settled, report })
        },
        (error: unknown) => update({ ...base, state: 'error', settled: view?.settled ?? 0, error: error instanceof Error ? error.message : String(error) }),
      ).finally(() => {
        clearInterval(poll)
        reader?.close()
        if (controller === abort) controller = null
        rmSync(dir, { recursive: true, force: true })
      })
      return view as ScenarioRunView
    },
    cancel(runId) {
      if (view?.runId !== runId || !controller) return false
      controller.abort()
      return true
    },
    async close() {
      controller?.abort()
      await running
    },
  }
}
