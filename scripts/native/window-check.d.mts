// Types for window-check.mjs (imported by the tests).
export type WindowPlan = { mode: 'electron'; binary: string; notices: string[] } | { mode: 'browser'; notices: string[] }
export function checkWindow(root: string, options?: { build?: (root: string) => { ok: boolean; line: string; log: string } }): WindowPlan
