// Short notices in a corner of the window: what a command did or why it failed. The last four
// stay; an error stays longer than the rest.
import { useApp } from './app-store'

export interface Toast {
  id: number
  tone: 'info' | 'error' | 'ok'
  text: string
}

export interface Toasts {
  toasts: Toast[]
}

let toastId = 0
export function toast(tone: Toast['tone'], text: string): void {
  const id = ++toastId
  useApp.setState((s) => ({ toasts: [...s.toasts.slice(-3), { id, tone, text }] }))
  setTimeout(() => useApp.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), tone === 'error' ? 7000 : 3500)
}
