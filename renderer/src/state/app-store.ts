// The UI's state, in one zustand store with narrow selectors, in slices by domain: what the engine
// told us (engine-mirror.ts, timeline-rows.ts, row-verdicts.ts), what the person chose
// (ui-choices.ts) and the notices shown (toasts.ts). Each slice declares its part and the commands
// that change it; the store starts here, so the slices import it and it imports only their types.
import { create } from 'zustand'
import { emptyTimeline } from './timeline-model'
import type { EngineMirror } from './engine-mirror'
import type { RowVerdicts } from './row-verdicts'
import type { TimelineRows } from './timeline-rows'
import type { Toasts } from './toasts'
import type { UiChoices } from './ui-choices'

export type AppState = EngineMirror & TimelineRows & UiChoices & RowVerdicts & Toasts

export const useApp = create<AppState>(() => ({
  client: null,
  connection: { state: 'connecting' },
  snapshot: null,
  loadError: null,
  storeVersion: 0,
  timeline: emptyTimeline,
  timelineLoading: false,
  filter: {},
  hiddenArrivals: new Map(),
  view: 'timeline',
  layout: 'timeline',
  selection: null,
  window: null,
  relative: false,
  live: true,
  showShortcuts: false,
  draft: null,
  picked: new Set(),
  dialog: null,
  ranText: null,
  ghosts: new Map(),
  toasts: [],
}))
