// What the engine told this window: the connection, the snapshot kept current by the pushed state
// events, and the commands sent through the client. Engine events land here through applyBatch(),
// called at most once per animation frame (frame-applier.ts).
import type { EventName, EventMessage, EventPayloads, Snapshot, TimelineRow } from '../../../shared/contract'
import type { ConnectionState, EngineClient } from '../transport/client'
import { useApp, type AppState } from './app-store'
import { applyUpserts } from './timeline-model'
import { noteArrivals } from './hidden-arrivals'
import { noteSeen, seenBefore } from './seen-activity'
import { arrivalView, reloadTimeline } from './timeline-rows'
import { toast } from './toasts'

export interface EngineMirror {
  client: EngineClient | null
  connection: ConnectionState
  snapshot: Snapshot | null
  loadError: string | null
  /**
   * Moves whenever the engine says rows changed in the store, whatever the filters show: counts
   * read from the store (the top bar's) read again on it instead of waiting for their timer.
   */
  storeVersion: number
}

/** Runs a command and reports a failure as a toast; resolves to undefined on failure. */
export async function run<T>(what: string, action: (client: EngineClient) => Promise<T>): Promise<T | undefined> {
  const client = useApp.getState().client
  if (!client) return undefined
  try {
    return await action(client)
  } catch (error) {
    toast('error', `${what}: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  }
}

/**
 * Whether this socket may run the store-wide commands (the clock, Try the loop, the tunnel,
 * recording, scenario runs, the retention): the engine says so in the snapshot (`storeWide`), true
 * without accounts and in the workspace `default`. Their controls show only then.
 */
export const useStoreWide = (): boolean => useApp((s) => s.snapshot?.storeWide === true)

export async function loadSnapshot(): Promise<void> {
  const client = useApp.getState().client
  if (!client) return
  try {
    const snapshot = await client.call('snapshot', {})
    useApp.setState({ snapshot, loadError: null })
  } catch (error) {
    useApp.setState({ loadError: error instanceof Error ? error.message : String(error) })
  }
}

type StateEventName = Exclude<EventName, 'timeline.upsert' | 'timeline.reset'>
/** Each state event as the part of the snapshot it replaces. */
const SNAPSHOT_PARTS: { [E in StateEventName]: (payload: EventPayloads[E], snapshot: Snapshot) => Partial<Snapshot> } = {
  'endpoints.changed': ({ endpoints }) => ({ endpoints }),
  'rules.changed': ({ rules }) => ({ rules }),
  'subscriptions.changed': ({ subscriptions }) => ({ subscriptions }),
  'tunnel.state': (tunnel) => ({ tunnel }),
  'clock.state': (clock) => ({ clock }),
  'simulations.changed': ({ simulations }) => ({ simulations }),
  'recording.state': (recording) => ({ recording }),
  'scenario.progress': (scenarioRun) => ({ scenarioRun }),
  'breakpoints.changed': ({ breakpoints }, { breakpoints: now }) => ({ breakpoints: { ...now, breakpoints } }),
  // A held request is shown at once, in the frame its event arrives in; released, it leaves the list.
  'breakpoint.held': (request, { breakpoints: now }) => ({ breakpoints: { ...now, held: [...now.held.filter((h) => h.requestId !== request.requestId), request] } }),
  'breakpoint.released': ({ requestId }, { breakpoints: now }) => ({ breakpoints: { ...now, held: now.held.filter((h) => h.requestId !== requestId) } }),
}
const snapshotPart = <E extends StateEventName>(event: EventMessage<E>, snapshot: Snapshot): Partial<Snapshot> => SNAPSHOT_PARTS[event.name](event.payload, snapshot)

/** Applies one frame's worth of engine events. */
export function applyBatch(batch: EventMessage[]): void {
  let upserts: TimelineRow[] = []
  let reset = false
  const patch: Partial<AppState> = {}
  let snapshot = useApp.getState().snapshot
  for (const event of batch) {
    switch (event.name) {
      case 'timeline.upsert':
        upserts = upserts.concat(event.payload.rows)
        break
      case 'timeline.reset':
        reset = true
        break
      default:
        if (snapshot) snapshot = { ...snapshot, ...snapshotPart(event, snapshot) }
    }
  }
  if (snapshot !== useApp.getState().snapshot) patch.snapshot = snapshot
  noticeSimulations(upserts, snapshot)
  if (upserts.length > 0) {
    const state = useApp.getState()
    if (!reset) patch.timeline = applyUpserts(state.timeline, upserts, state.filter)
    // What the view hides is counted even when the list is read again: it stays hidden there too.
    const hidden = noteArrivals(state.hiddenArrivals, upserts, arrivalView(state), seenBefore)
    if (hidden !== state.hiddenArrivals) patch.hiddenArrivals = hidden
    noteSeen(upserts)
  }
  if (upserts.length > 0 || reset) patch.storeVersion = useApp.getState().storeVersion + 1
  if (Object.keys(patch).length > 0) useApp.setState(patch)
  if (reset) void reloadTimeline()
}

const askedSimulations = new Set<string>()
/** A row of a simulation the snapshot does not list yet: read the snapshot again for its name. */
function noticeSimulations(rows: TimelineRow[], snapshot: Snapshot | null): void {
  let unknown = false
  for (const row of rows) {
    if (row.clock.kind !== 'simulated' || !snapshot) continue
    const id = row.clock.simulationId
    if (askedSimulations.has(id) || snapshot.simulations.some((s) => s.id === id)) continue
    askedSimulations.add(id)
    unknown = true
  }
  if (unknown) void loadSnapshot()
}
