// Saving and opening files from the UI: the Electron window asks the main process for native
// dialogs through the preload bridge; in a browser a save is a download and an open is a file input.
import type { HookloopBridge } from '../../../shared/bridge'

function bridge(): HookloopBridge | undefined {
  return (window as unknown as { hookloop?: HookloopBridge }).hookloop
}

/** True in the app window (native dialogs: a save gives a path); false in a browser (a save is a download). */
export function savesToPath(): boolean {
  return bridge()?.saveFile !== undefined
}

/** Saves bytes as a download under a suggested name (the window's downloads ask where, as a browser does). */
export function saveBlob(defaultName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  try {
    const a = document.createElement('a')
    a.href = url
    a.download = defaultName
    a.rel = 'noopener'
    document.body.appendChild(a)
    a.click()
    a.remove()
  } finally {
    // The download has its own copy once started.
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }
}

/** Saves text under a suggested name; resolves to where it went (a path, or the download's name), null when cancelled. */
export async function saveTextFile(options: { title: string; defaultName: string; text: string; mime?: string }): Promise<string | null> {
  const native = bridge()
  if (native?.saveFile) return native.saveFile({ title: options.title, defaultName: options.defaultName, text: options.text })
  saveBlob(options.defaultName, new Blob([options.text], { type: options.mime ?? 'application/json' }))
  return options.defaultName
}

/** Opens a text file; null when the person cancels. */
export async function openTextFile(options: { title: string; extensions: string[] }): Promise<{ name: string; text: string } | null> {
  const native = bridge()
  if (native?.openFile) {
    const file = await native.openFile(options)
    return file ? { name: file.name, text: file.text } : null
  }
  return new Promise((resolve) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = options.extensions.map((e) => `.${e}`).join(',')
    input.setAttribute('data-testid', 'file-input')
    input.style.display = 'none'
    input.addEventListener('change', () => {
      const file = input.files?.[0]
      input.remove()
      if (!file) return resolve(null)
      void file.text().then((text) => resolve({ name: file.name, text }))
    })
    input.addEventListener('cancel', () => {
      input.remove()
      resolve(null)
    })
    document.body.appendChild(input)
    input.click()
  })
}
