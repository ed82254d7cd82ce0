// With accounts, what a caller sees and names is its workspace's (docs/team.md, "Workspaces"). The
// one place that decides "is this id in this workspace": every command that takes an id of an
// endpoint, rule, subscription, request or delivery is checked here before its handler runs, by a
// store read of the row's workspace (store/workspaces.ts). An id of another workspace is answered
// exactly as one that does not exist: the handler itself is asked about an id no row has, and its
// answer is given with the caller's id put back, so the code and the message cannot differ. The
// lists the snapshot holds and the definitions pushed to each socket are filtered by the same
// owners, and so are the timeline's rows pushed as they change. Without accounts none of this is wired (run-host.ts): everything is `default`'s.
import { randomBytes } from 'node:crypto'
import type { CommandName, EventMessage, PruneResult, Snapshot } from '../../../shared/contract'
import type { Breakpoint } from '../../../shared/receiver'
import { createWorkspaceStore, DEFAULT_WORKSPACE, type DefinitionOwners, type OwnedKind, type SqlEngine } from '../store'
import type { Caller, CommandHandlers } from './control-server'
import { HostError } from './host-error'

type Path = readonly string[]

/** Where each id-taking command holds its ids, and what each names. */
export const SCOPED_IDS: Partial<Record<CommandName, readonly (readonly [Path, OwnedKind])[]>> = {
  'delivery.get': [[['id'], 'delivery']],
  'delivery.retryNow': [[['id'], 'delivery']],
  'delivery.replay': [[['id'], 'delivery']],
  'request.get': [[['id'], 'request']],
  'request.resend': [[['id'], 'request']],
  'request.explainSignature': [[['id'], 'request']],
  'endpoint.setForwardTo': [[['id'], 'endpoint']],
  'endpoint.setDedupe': [[['id'], 'endpoint']],
  'endpoint.delete': [[['id'], 'endpoint']],
  'endpoint.trigger': [[['endpoint'], 'endpointRef']],
  'rule.addPreset': [[['endpointId'], 'endpoint']],
  'rule.update': [[['id'], 'rule']],
  'rule.setEnabled': [[['id'], 'rule']],
  'rule.move': [[['id'], 'rule']],
  'rule.delete': [[['id'], 'rule']],
  'subscription.create': [[['target', 'endpointId'], 'endpoint']],
  'subscription.setPaused': [[['id'], 'subscription']],
  'subscription.rotateSecret': [[['id'], 'subscription']],
  'event.send': [[['subscriptionId'], 'subscription']],
  'held.release': [[['requestId'], 'request']],
  'held.answer': [[['requestId'], 'request']],
  'held.drop': [[['requestId'], 'request']],
  'breakpoint.put': [[['breakpoint', 'endpointId'], 'endpoint']],
  'history.clear': [[['endpointId'], 'endpoint']],
  'check.sender': [[['endpointId'], 'endpoint']],
  'import.replay': [[['target', 'endpointId'], 'endpoint']],
  // Lists of ids: each one checked.
  'export.selection': [
    [['deliveryIds'], 'delivery'],
    [['requestIds'], 'request'],
  ],
}

/**
 * The commands that act on the whole store or the engine every workspace shares (its clock, its
 * tunnel, a recording, a scenario run and what it makes, the retention): with accounts, run in
 * `default` only, so another workspace's members change nothing of the others'.
 */
export const STORE_WIDE: readonly CommandName[] = ['clock.set', 'loop.try', 'record.start', 'record.stop', 'scenario.run', 'scenario.cancel', 'tunnel.start', 'tunnel.stop', 'history.setRetention']

/** Whether a caller acting in this workspace (undefined: without accounts) may run the STORE_WIDE commands. */
export const runsStoreWide = (workspace: string | undefined): boolean => workspace === undefined || workspace === DEFAULT_WORKSPACE

const at = (value: unknown, path: Path): unknown => path.reduce<unknown>((inner, key) => (inner && typeof inner === 'object' ? (inner as Record<string, unknown>)[key] : undefined), value)
function withAt(value: unknown, path: Path, replacement: unknown): unknown {
  const [key, ...rest] = path
  if (key === undefined || !value || typeof value !== 'object') return replacement
  const record = value as Record<string, unknown>
  return { ...record, [key]: rest.length === 0 ? replacement : withAt(record[key], rest, replacement) }
}

/** Two clears' results as one: their counts added, the store's size the later one's. */
const sumPrunes = (a: PruneResult, b: PruneResult): PruneResult => ({
  deleted: a.deleted + b.deleted,
  deliveries: a.deliveries + b.deliveries,
  attempts: a.attempts + b.attempts,
  events: a.events + b.events,
  bytes: a.bytes + b.bytes,
  batches: a.batches + b.batches,
  reclaimedPages: a.reclaimedPages + b.reclaimedPages,
  size: b.size,
})

export interface WorkspaceScope {
  /** The handlers, each id-taking one checked first and the snapshot's lists filtered, for a caller with a workspace. */
  guard(handlers: CommandHandlers): CommandHandlers
  /** Reads again which workspace each endpoint and subscription is in (after the definitions changed). */
  refresh(): Promise<void>
  /** Whether the row is in the workspace (a body route's check). */
  owns(workspace: string, kind: OwnedKind, id: string | number): Promise<boolean>
  /** The pushed events a socket of this workspace may see: the definitions' lists filtered, the rest as they are. */
  filter(workspace: string, batch: readonly EventMessage[]): EventMessage[]
}

export function createWorkspaceScope(engine: () => SqlEngine): WorkspaceScope {
  const store = () => createWorkspaceStore(engine())
  let owners: DefinitionOwners = { endpoints: new Map(), subscriptions: new Map(), everyEndpointRules: new Map() }
  // A request at no endpoint's path is default's.
  const endpointIn = (id: string | null | undefined, workspace: string) => (id === null || id === undefined ? workspace === DEFAULT_WORKSPACE : owners.endpoints.get(id) === workspace)
  const subscriptionIn = (id: string, workspace: string) => owners.subscriptions.get(id) === workspace
  // A rule or a breakpoint for every endpoint is its own workspace's (schema 29); an endpoint's, its endpoint's.
  const ruleIn = (r: { id: string; endpointId: string | null }, workspace: string) => (r.endpointId === null ? owners.everyEndpointRules.get(r.id) === workspace : endpointIn(r.endpointId, workspace))
  const breakpointIn = (b: Breakpoint, workspace: string) => (b.endpointId === null ? (b.workspaceId ?? DEFAULT_WORKSPACE) === workspace : endpointIn(b.endpointId, workspace))

  function snapshotIn(snapshot: Snapshot, workspace: string): Snapshot {
    // The simulations, a recording and a scenario run are the store-wide commands' (default's); the
    // UI hides the controls of the commands this socket would be refused (Snapshot.storeWide).
    const storeWide = runsStoreWide(workspace) ? {} : { simulations: [], recording: { active: false, startedAt: null, steps: 0, events: 0 }, scenarioRun: null, storeWide: false }
    return {
      ...snapshot,
      ...storeWide,
      endpoints: snapshot.endpoints.filter((e) => endpointIn(e.id, workspace)),
      rules: snapshot.rules.filter((r) => ruleIn(r, workspace)),
      subscriptions: snapshot.subscriptions.filter((s) => subscriptionIn(s.id, workspace)),
      breakpoints: { ...snapshot.breakpoints, breakpoints: snapshot.breakpoints.breakpoints.filter((b) => breakpointIn(b, workspace)) },
    }
  }

  const scope: WorkspaceScope = {
    owns: async (workspace, kind, id) => (await store().ownerOf(kind, id)) === workspace,
    async refresh() {
      owners = await store().definitionOwners()
    },
    filter(workspace, batch) {
      return batch.flatMap((event): EventMessage[] => {
        switch (event.name) {
          case 'endpoints.changed':
            return [{ name: event.name, payload: { endpoints: event.payload.endpoints.filter((e) => endpointIn(e.id, workspace)) } }]
          case 'rules.changed':
            return [{ name: event.name, payload: { rules: event.payload.rules.filter((r) => ruleIn(r, workspace)) } }]
          case 'subscriptions.changed':
            return [{ name: event.name, payload: { subscriptions: event.payload.subscriptions.filter((s) => subscriptionIn(s.id, workspace)) } }]
          // A row is its endpoint's (a request) or its subscription's (a delivery).
          case 'timeline.upsert':
            return [{ name: event.name, payload: { rows: event.payload.rows.filter((row) => (row.kind === 'delivery' ? row.subscriptionId !== null && subscriptionIn(row.subscriptionId, workspace) : endpointIn(row.endpointId, workspace))) } }]
          // A request held by a breakpoint, and its release, are its endpoint's workspace's.
          case 'breakpoint.held':
          case 'breakpoint.released':
            return endpointIn(event.payload.endpointId, workspace) ? [event] : []
          // What the store-wide commands report (STORE_WIDE: run in default) is default's.
          case 'recording.state':
          case 'scenario.progress':
          case 'simulations.changed':
            return runsStoreWide(workspace) ? [event] : []
          case 'breakpoints.changed':
            return [{ name: event.name, payload: { ...event.payload, breakpoints: event.payload.breakpoints.filter((b) => breakpointIn(b, workspace)) } }]
          default:
            return [event]
        }
      })
    },
    guard(handlers) {
      const guarded = { ...handlers } as Record<CommandName, (req: unknown, caller: Caller) => unknown>
      const original = handlers as unknown as Record<CommandName, (req: unknown, caller: Caller) => unknown>
      for (const [name, fields] of Object.entries(SCOPED_IDS) as [CommandName, readonly (readonly [Path, OwnedKind])[]][]) {
        const handler = original[name]
        guarded[name] = async (req, caller) => {
          const workspace = caller.workspace
          if (workspace === undefined) return handler(req, caller)
          let asked = req
          const putBack: [string, string][] = []
          // Another workspace's id (or no row's) is asked as an id no row has.
          const checked = async (id: unknown, kind: OwnedKind): Promise<unknown> => {
            if (typeof id !== 'string' && typeof id !== 'number') return id
            if ((await store().ownerOf(kind, id)) === workspace) return id
            const missing = typeof id === 'number' ? Number.MAX_SAFE_INTEGER - putBack.length : `missing-${randomBytes(8).toString('hex')}`
            putBack.push([String(missing), String(id)])
            return missing
          }
          for (const [path, kind] of fields) {
            const value = at(req, path)
            const asAsked = Array.isArray(value) ? await Promise.all(value.map((id) => checked(id, kind))) : await checked(value, kind)
            if (asAsked !== value && !(Array.isArray(value) && (asAsked as unknown[]).every((id, index) => id === value[index]))) asked = withAt(asked, path, asAsked)
          }
          if (putBack.length === 0) return handler(req, caller)
          try {
            return await handler(asked, caller)
          } catch (error) {
            if (!(error instanceof Error)) throw error
            const message = putBack.reduce((text, [missing, id]) => text.split(missing).join(id), error.message)
            if (error instanceof HostError) throw new HostError(error.code, message)
            error.message = message
            throw error
          }
        }
      }
      for (const name of STORE_WIDE) {
        const handler = original[name]
        guarded[name] = (req, caller) => {
          if (!runsStoreWide(caller.workspace)) throw new HostError('forbidden', `${name} acts on the whole store, which every workspace shares: run it in the default workspace`)
          return handler(req, caller)
        }
      }
      // Clearing every endpoint's history would clear the other workspaces': with several, "every
      // endpoint" is each of the caller's workspace's, one after the other, their results summed.
      const clear = guarded['history.clear']
      guarded['history.clear'] = async (req, caller) => {
        const workspace = caller.workspace
        if (workspace === undefined || at(req, ['endpointId']) !== undefined || (await store().list()).length <= 1) return clear(req, caller)
        const mine = [...owners.endpoints].filter(([, w]) => w === workspace).map(([id]) => id)
        let total: PruneResult | null = null
        for (const endpointId of mine) {
          const one = (await clear({ endpointId }, caller)) as PruneResult
          total = total === null ? one : sumPrunes(total, one)
        }
        return total ?? { deleted: 0, deliveries: 0, attempts: 0, events: 0, bytes: 0, batches: 0, reclaimedPages: 0, size: (await original['history.size']({}, caller)) as PruneResult['size'] }
      }
      // A breakpoint for every endpoint is made in the caller's workspace (the handler stamps it)
      // and holds its endpoints only. An id another workspace's breakpoint has is not this one's
      // to replace.
      const ownsBreakpoint = async (b: Breakpoint, workspace: string) => (b.endpointId ? (await store().ownerOf('endpoint', b.endpointId)) === workspace : (b.workspaceId ?? DEFAULT_WORKSPACE) === workspace)
      const put = guarded['breakpoint.put']
      guarded['breakpoint.put'] = async (req, caller) => {
        const id = at(req, ['breakpoint', 'id'])
        if (caller.workspace !== undefined && typeof id === 'string') {
          const listed = (await original['breakpoint.list']({}, caller)) as Snapshot['breakpoints']
          const existing = listed.breakpoints.find((b) => b.id === id)
          if (existing && !(await ownsBreakpoint(existing, caller.workspace))) throw new HostError('conflict', `breakpoint.put: the id "${id}" is taken: leave the id out to make a new breakpoint`)
        }
        return put(req, caller)
      }
      const remove = original['breakpoint.remove']
      guarded['breakpoint.remove'] = async (req, caller) => {
        const workspace = caller.workspace
        const id = at(req, ['id'])
        if (workspace === undefined || typeof id !== 'string') return remove(req, caller)
        const listed = (await original['breakpoint.list']({}, caller)) as Snapshot['breakpoints']
        const breakpoint = listed.breakpoints.find((b) => b.id === id)
        const ownedHere = breakpoint !== undefined && (await ownsBreakpoint(breakpoint, workspace))
        if (ownedHere || breakpoint === undefined) return remove(req, caller)
        const missing = `missing-${randomBytes(8).toString('hex')}`
        try {
          return await remove({ ...(req as object), id: missing }, caller)
        } catch (error) {
          if (error instanceof HostError) throw new HostError(error.code, error.message.split(missing).join(id))
          throw error
        }
      }
      const list = original['breakpoint.list']
      guarded['breakpoint.list'] = async (req, caller) => {
        const listed = (await list(req, caller)) as Snapshot['breakpoints']
        if (caller.workspace === undefined) return listed
        await scope.refresh()
        const workspace = caller.workspace
        return { ...listed, breakpoints: listed.breakpoints.filter((b) => breakpointIn(b, workspace)) }
      }
      // The store's size is the store's; the requests it counts are the workspace's.
      const size = original['history.size']
      guarded['history.size'] = async (req, caller) => {
        const whole = (await size(req, caller)) as Record<string, unknown>
        return caller.workspace === undefined ? whole : { ...whole, ...(await store().requestsIn(caller.workspace)) }
      }
      const snapshot = original.snapshot
      guarded.snapshot = async (req, caller) => {
        const whole = (await snapshot(req, caller)) as Snapshot
        if (caller.workspace === undefined) return whole
        await scope.refresh()
        return snapshotIn(whole, caller.workspace)
      }
      return guarded as unknown as CommandHandlers
    },
  }
  return scope
}
