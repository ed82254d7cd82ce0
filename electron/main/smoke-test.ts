// `--smoke-test`: the installers' check that a packaged app really works. The engine has started
// (its store is open: startHost opened it before answering `ready`); this waits until the window's
// renderer has fetched the engine's address through the preload and shows the app, which it does
// only after the engine answered its first snapshot over the control socket.
import type { BrowserWindow } from 'electron'

export const SMOKE_TEST_FLAG = '--smoke-test'
const TIMEOUT_MS = 60_000
const POLL_MS = 250

// Read in the page: the app root appears once a snapshot arrived; the loading screen shows the
// error when the renderer could not reach the engine.
const PROBE = `(() => {
  if (document.querySelector('[data-testid=app]')) return { state: 'connected' }
  const error = document.querySelector('[data-testid=app-loading] .error-text')
  return error ? { state: 'failed', reason: error.textContent } : { state: 'waiting' }
})()`

type Probe = { state: 'connected' } | { state: 'failed'; reason: string } | { state: 'waiting' }

/** Resolves when the renderer is connected; rejects with the reason otherwise. */
export async function waitForRenderer(window: BrowserWindow): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS
  let last = 'the page did not load'
  while (Date.now() < deadline) {
    if (window.isDestroyed()) throw new Error('the window closed before the renderer connected')
    if (!window.webContents.isLoading()) {
      const probe = (await window.webContents.executeJavaScript(PROBE)) as Probe
      switch (probe.state) {
        case 'connected':
          return
        case 'failed':
          throw new Error(`the renderer could not reach the engine: ${probe.reason}`)
        case 'waiting':
          last = 'the renderer was still connecting to the engine'
          break
        default: {
          const never: never = probe
          return never
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  throw new Error(`timed out after ${TIMEOUT_MS / 1000} s: ${last}`)
}
