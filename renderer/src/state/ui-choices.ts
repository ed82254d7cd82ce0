// What the person chose in this window: the view, the timeline's layout, selection and axis, the
// rows picked for export, open dialogs, and the scenario open in the editor.
import { useApp } from './app-store'

export type ViewId = 'timeline' | 'endpoints' | 'sender' | 'subscriptions' | 'scenarios' | 'checks' | 'breakpoints'

/** The scenario open in the editor: its text and where it came from. */
export interface ScenarioDraft {
  text: string
  /** File name to save under (and shown in the header). */
  fileName: string
  /** What the recording could not say exactly as it happened. */
  notes: string[]
}

export type Selection = { rowKey: string; mark?: { kind: 'attempt' | 'request'; id: number } } | null

export interface TimeWindow {
  start: number
  end: number
}

export interface UiChoices {
  view: ViewId
  layout: 'timeline' | 'table'
  selection: Selection
  window: TimeWindow | null
  relative: boolean
  live: boolean
  showShortcuts: boolean
  draft: ScenarioDraft | null
  /** Rows picked for export (Ctrl/⌘-click), besides the selected one. */
  picked: ReadonlySet<string>
  dialog: 'export' | 'import' | null
  /** The scenario text the last run from this window started from (its report speaks for that text only). */
  ranText: string | null
}

export function togglePicked(key: string): void {
  useApp.setState((s) => {
    const picked = new Set(s.picked)
    if (!picked.delete(key)) picked.add(key)
    return { picked }
  })
}
