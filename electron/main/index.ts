import { join } from 'node:path'
import { app, BrowserWindow, dialog, session } from 'electron'
import { contentSecurityPolicy } from '../engine/host'
import { dataFlagOf, resolveDataDir } from '../engine/data-dir'
import { appDataKey } from './data-key'
import { startEngineProcess, type EngineProcess } from './engine-process'
import { registerIpc } from './ipc'
import { chooseNativeBinding } from './native-binding'
import { createSecretStore, secretStorageStatus } from './secret-store'
import { SMOKE_TEST_FLAG, waitForRenderer } from './smoke-test'

// The Electron shell only: one locked-down window, native dialogs, secret storage, and starting
// the engine in its own process. The window shows the app the engine serves on 127.0.0.1.
let mainWindow: BrowserWindow | null = null
let engine: EngineProcess | null = null
const smokeTest = process.argv.includes(SMOKE_TEST_FLAG)

/** Stops the engine (its store closes cleanly) before the app exits with code. */
async function exitAfterEngine(code: number): Promise<void> {
  const running = engine
  engine = null
  if (running) await running.stop()
  app.exit(code)
}

/** A failure before the window works: a dialog, or in a smoke test one line and exit 1. */
function fail(title: string, message: string): void {
  if (smokeTest) {
    console.error(`hookloop: smoke test failed: ${title}: ${message}`)
    void exitAfterEngine(1)
    return
  }
  dialog.showErrorBox(title, message)
  app.quit()
}

function createWindow(origin: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    show: false,
    title: 'Hookloop',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click must not open links in new windows.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  window.once('ready-to-show', () => window.show())
  // No navigation away from the app and no new windows at all (the app has no external links).
  window.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== origin) event.preventDefault()
  })
  window.webContents.on('will-redirect', (event, url) => {
    if (new URL(url).origin !== origin) event.preventDefault()
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  void window.loadURL(`${origin}/`)
  return window
}

function lockDownSession(origin: string, port: number): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  // The engine's pages carry the CSP already; this adds it to anything else the window loads.
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders }
    if (new URL(details.url).origin !== origin) headers['Content-Security-Policy'] = [contentSecurityPolicy(port)]
    callback({ responseHeaders: headers })
  })
}

async function start(): Promise<void> {
  // The same rule as every `hookloop` command: --data, else $HOOKLOOP_DATA, else the user data folder.
  let dataDir: string
  try {
    dataDir = resolveDataDir(dataFlagOf(process.argv))
  } catch (error) {
    return fail('Hookloop cannot open its store', error instanceof Error ? error.message : String(error))
  }
  const secrets = createSecretStore(join(app.getPath('userData'), 'secrets.json'))
  const storage = secretStorageStatus()
  const native = chooseNativeBinding(app.getAppPath(), process.versions.electron, process.versions.modules, app.isPackaged)
  if ('problem' in native) return fail('Hookloop cannot open its store', native.problem)
  try {
    const dataKey = appDataKey(dataDir)
    engine = await startEngineProcess({
      dataDir,
      rendererDir: join(__dirname, '../renderer'),
      warnings: [storage.warning, dataKey.warning].filter((w): w is string => w !== null),
      ...(native.binding ? { nativeBinding: native.binding } : {}),
      ...(dataKey.key ? { secretKey: dataKey.key } : {}),
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return fail(
      'Hookloop could not start its engine',
      `${message}\n\nIf this mentions NODE_MODULE_VERSION, better-sqlite3 is not built for this Electron: run \`npm run native\` (README, "Troubleshooting").`,
    )
  }
  const running = engine
  lockDownSession(running.origin, running.port)
  registerIpc({
    window: () => mainWindow,
    origin: () => running.origin,
    address: () => ({ socketOrigin: running.origin.replace(/^http/, 'ws'), token: running.token }),
    secrets,
  })
  const window = createWindow(running.origin)
  mainWindow = window
  window.on('closed', () => (mainWindow = null))
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(running.origin)
  })
  if (smokeTest) {
    waitForRenderer(window).then(
      () => {
        console.log(`hookloop: smoke test passed: engine at ${running.origin}, store open in ${dataDir}, window connected`)
        void exitAfterEngine(0)
      },
      (error: unknown) => fail('the window did not connect', error instanceof Error ? error.message : String(error)),
    )
  }
}

void app.whenReady().then(start)

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Quitting waits for the engine to stop, so its store closes cleanly (Electron would otherwise end
// the utility process with the app), then quits for real.
app.on('will-quit', (event) => {
  const running = engine
  if (!running) return
  event.preventDefault()
  engine = null
  void running.stop().then(() => app.quit())
})
