// A stand-in for the `electron` module, for running the real main-process and preload code under
// Node. It exists because the Electron binary cannot be downloaded or run on our machines (CI
// installs with ELECTRON_SKIP_BINARY_DOWNLOAD). Everything behind it is real where it can be:
// utilityProcess.fork starts a real Node child on the same entry with the same messages, the
// window is real Chromium (playwright-core) showing the engine's page, the preload runs as a
// sandboxed preload would (its require limited to 'electron') and its bridge is what the page
// gets. What it records (options, handlers, messages) is read by the probes in launch-shell.mjs.
import { EventEmitter } from 'node:events'
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { preventable } from './event.mjs'
import { openWindowPage } from './window-page.mjs'

/** What the shell did, for the probes. */
export const record = {
  forks: [],
  windows: [],
  errorBoxes: [],
  ipcHandlers: new Map(),
  session: { permissionRequest: null, permissionCheck: null, headersReceived: null },
  exposed: new Map(),
}

const UTILITY_CHILD = new URL('./utility-child.mjs', import.meta.url).href

class App extends EventEmitter {
  isPackaged = false
  whenReady() {
    return Promise.resolve()
  }
  getAppPath() {
    return required('HOOKLOOP_STAND_IN_APP_PATH')
  }
  getPath(name) {
    if (name === 'userData') return required('HOOKLOOP_STAND_IN_USER_DATA')
    throw new Error(`the stand-in app knows no path "${name}"`)
  }
  getVersion() {
    return '0.0.0'
  }
  /** Like Electron: windows close, will-quit, quit, then the process ends (taking its utility processes). */
  async quit() {
    if (this.quitting) return
    this.quitting = true
    this.emit('before-quit', preventable())
    for (const window of record.windows) await window.close()
    const willQuit = preventable()
    this.emit('will-quit', willQuit)
    // A listener that prevents it quits again later, as Electron allows.
    if (willQuit.defaultPrevented) return void (this.quitting = false)
    this.emit('quit')
    await endUtilityProcesses()
    process.exit(0)
  }
  async exit(code) {
    for (const window of record.windows) await window.close()
    await endUtilityProcesses()
    process.exit(code)
  }
}

function required(name) {
  const value = process.env[name]
  if (!value) throw new Error(`the electron stand-in needs ${name}`)
  return value
}

// Electron ends a utility process when the app exits; the probes want to know whether main
// stopped it first (cleanly) or left it for this.
async function endUtilityProcesses() {
  for (const child of record.forks) {
    if (child.exited) continue
    child.leftRunning = true
    child.child.kill('SIGKILL')
    await child.exitedPromise
  }
  announce('forks', record.forks.map((f) => ({ pid: f.pid, killedByMain: f.killedByMain, leftRunning: Boolean(f.leftRunning), exit: f.exit })))
}

/** One line the test reads from stdout: `@@shell <name> <json>`. */
export function announce(name, value) {
  process.stdout.write(`@@shell ${name} ${JSON.stringify(value)}\n`)
}

export const app = new App()

class UtilityProcess extends EventEmitter {
  constructor(modulePath, args, options) {
    super()
    if (!isAbsolute(modulePath) || !existsSync(modulePath)) throw new Error(`utilityProcess.fork: ${modulePath} does not exist`)
    const stdio = options?.stdio ?? 'inherit'
    if (!['pipe', 'ignore', 'inherit'].includes(stdio) && !Array.isArray(stdio)) throw new Error(`utilityProcess.fork: stdio ${stdio} is not allowed`)
    this.modulePath = modulePath
    this.options = options
    this.messages = []
    this.killedByMain = false
    // process.parentPort comes from utility-child.mjs, as Electron gives it to a utility process.
    this.child = fork(modulePath, args ?? [], {
      stdio: stdio === 'ignore' ? ['ignore', 'ignore', 'ignore', 'ipc'] : stdio === 'pipe' ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['inherit', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--import', UTILITY_CHILD],
      env: options?.env ?? process.env,
      serialization: 'advanced',
    })
    this.pid = this.child.pid
    this.exitedPromise = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true
        this.exit = { code, signal }
        // Electron passes only the code.
        this.emit('exit', code ?? 1)
        resolve()
      })
    })
    this.child.on('message', (message) => {
      this.replies = [...(this.replies ?? []), message]
      this.emit('message', message)
    })
    record.forks.push(this)
  }
  postMessage(message) {
    this.messages.push(message)
    this.child.send(message)
  }
  kill() {
    this.killedByMain = true
    return this.child.kill('SIGTERM')
  }
}

export const utilityProcess = { fork: (modulePath, args, options) => new UtilityProcess(modulePath, args, options) }

let nextId = 1

class WebContents extends EventEmitter {
  constructor(window) {
    super()
    this.window = window
    this.id = nextId++
    this.url = ''
    this.loading = false
    this.windowOpenHandler = null
    // Electron's WebFrameMain of the top frame; its URL is the page's.
    this.mainFrame = {}
    Object.defineProperty(this.mainFrame, 'url', { get: () => this.page?.mainFrame().url() ?? this.url })
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler
  }
  async loadURL(url) {
    this.url = url
    this.loading = true
    try {
      this.page = await openWindowPage(this, url, record)
      this.emit('did-finish-load')
      this.window.emit('ready-to-show')
    } finally {
      this.loading = false
    }
  }
  getURL() {
    return this.mainFrame.url
  }
  isLoading() {
    return this.loading
  }
  executeJavaScript(code) {
    if (!this.page) return Promise.reject(new Error('no page loaded'))
    return this.page.evaluate(code)
  }
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return record.windows.filter((w) => !w.destroyed)
  }
  constructor(options) {
    super()
    const preload = options?.webPreferences?.preload
    if (preload !== undefined && !isAbsolute(preload)) throw new Error(`webPreferences.preload must be an absolute path (got ${preload})`)
    this.options = options
    this.destroyed = false
    this.shown = false
    this.webContents = new WebContents(this)
    record.windows.push(this)
  }
  loadURL(url) {
    return this.webContents.loadURL(url)
  }
  show() {
    this.shown = true
  }
  isDestroyed() {
    return this.destroyed
  }
  async close() {
    if (this.destroyed) return
    this.destroyed = true
    await this.webContents.browser?.close()
    this.emit('closed')
  }
}

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (record.session.permissionRequest = handler),
    setPermissionCheckHandler: (handler) => (record.session.permissionCheck = handler),
    webRequest: { onHeadersReceived: (handler) => (record.session.headersReceived = handler) },
  },
}

export const ipcMain = {
  handle(channel, handler) {
    if (record.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    record.ipcHandlers.set(channel, handler)
  },
}

export const dialog = {
  showErrorBox: (title, content) => {
    record.errorBoxes.push({ title, content })
    announce('error-box', { title, content })
  },
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
}

// Linux without a keyring: Electron's plain-text fallback, which the app must warn about.
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (text) => Buffer.from(`plain:${text}`),
  decryptString: (bytes) => bytes.toString().replace(/^plain:/, ''),
}

export default { app, BrowserWindow, dialog, ipcMain, safeStorage, session, utilityProcess }
