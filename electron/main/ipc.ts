// One handler per bridge function. Every message's sender is checked: it must be our window's
// main frame showing the engine's own origin; anything else is refused and logged.
import { readFile, writeFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { dialog, ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { BRIDGE_CHANNELS, type EngineAddressView } from '../../shared/bridge'
import type { SecretStore } from './secret-store'

export interface IpcContext {
  window: () => BrowserWindow | null
  /** http://127.0.0.1:<port>, the only origin allowed to call. */
  origin: () => string | null
  address: () => EngineAddressView | null
  secrets: SecretStore
}

const MAX_OPEN_BYTES = 50 * 1024 * 1024

export function senderAllowed(event: IpcMainInvokeEvent, ctx: IpcContext): boolean {
  const window = ctx.window()
  const origin = ctx.origin()
  if (!window || !origin || event.sender !== window.webContents) return false
  const frame = event.senderFrame
  if (!frame || frame !== window.webContents.mainFrame) return false
  try {
    return new URL(frame.url).origin === origin
  } catch {
    return false
  }
}

export function registerIpc(ctx: IpcContext): void {
  const handle = <A extends unknown[], R>(channel: string, fn: (...args: A) => R | Promise<R>) => {
    ipcMain.handle(channel, (event, ...args) => {
      if (!senderAllowed(event, ctx)) {
        console.warn(`hookloop: refused ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}`)
        throw new Error('refused: not the Hookloop window')
      }
      return fn(...(args as A))
    })
  }

  handle(BRIDGE_CHANNELS.engineAddress, () => {
    const address = ctx.address()
    if (!address) throw new Error('the engine is not running')
    return address
  })
  handle(BRIDGE_CHANNELS.openFile, async (options: { title: string; extensions: string[] }) => {
    const window = ctx.window()
    if (!window) return null
    const result = await dialog.showOpenDialog(window, {
      title: options.title,
      properties: ['openFile'],
      filters: [{ name: options.extensions.join(', '), extensions: options.extensions.map((e) => e.replace(/^\./, '')) }],
    })
    const path = result.filePaths[0]
    if (result.canceled || !path) return null
    const bytes = await readFile(path)
    if (bytes.length > MAX_OPEN_BYTES) throw new Error(`${basename(path)} is larger than ${MAX_OPEN_BYTES / 1024 / 1024} MiB`)
    return { path, name: basename(path), text: bytes.toString('utf8') }
  })
  handle(BRIDGE_CHANNELS.saveFile, async (options: { title: string; defaultName: string; text: string }) => {
    const window = ctx.window()
    if (!window) return null
    const result = await dialog.showSaveDialog(window, { title: options.title, defaultPath: basename(options.defaultName) })
    if (result.canceled || !result.filePath) return null
    await writeFile(result.filePath, options.text)
    return result.filePath
  })
  handle(BRIDGE_CHANNELS.secretStorage, () => ctx.secrets.status())
  handle(BRIDGE_CHANNELS.saveSecret, (name: string, value: string) => ctx.secrets.save(name, value))
  handle(BRIDGE_CHANNELS.readSecret, (name: string) => ctx.secrets.read(name))
  handle(BRIDGE_CHANNELS.listSecrets, () => ctx.secrets.list())
  handle(BRIDGE_CHANNELS.deleteSecret, (name: string) => ctx.secrets.delete(name))
}
