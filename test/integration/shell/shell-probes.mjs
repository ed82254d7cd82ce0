// What the shell test checks in the running app (main process + preload + window + engine),
// gathered inside launch-shell.mjs where the stand-in's records live. Each probe drives the real
// handler main registered (navigation, IPC, permissions, the CSP hook) and reports what it did;
// the assertions are in shell.test.ts.
/* global location -- page.evaluate bodies run in the page */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { preventable } from './electron-stand-in/event.mjs'
import { invokeAs } from './electron-stand-in/window-page.mjs'

const ATTACKER = 'https://attacker.example'

async function until(read, what) {
  for (;;) {
    const value = read()
    if (value) return value
    if (process.exitCode) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const outcome = (promise) => promise.then((value) => ({ ok: true, value }), (error) => ({ ok: false, error: String(error.message ?? error) }))

function emitted(contents, name, ...args) {
  const event = preventable()
  contents.emit(name, event, ...args)
  return { prevented: event.defaultPrevented }
}

/** The better_sqlite3.node files a process has loaded (Linux: its memory maps). */
function loadedNativeModules(pid) {
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')
  return [...new Set(maps.filter((line) => line.endsWith('better_sqlite3.node')).map((line) => line.slice(line.indexOf('/'))))]
}

/** One scenario run on the engine, over the control socket as a UI would send it. */
async function runScenario(origin, token, text) {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/control?token=${token}`, { headers: { origin } })
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
  let next = 1
  const pending = new Map()
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString())
    if (frame.t !== 'res') return
    pending.get(frame.id)?.(frame)
    pending.delete(frame.id)
  })
  const call = (name, req) =>
    new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, (frame) => (frame.ok ? resolve(frame.res) : reject(new Error(`${name}: ${frame.error.message}`))))
      ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
    })
  try {
    await call('scenario.run', { text })
    for (;;) {
      const run = (await call('snapshot', {})).scenarioRun
      if (run && run.state !== 'running') return { state: run.state, error: run.error, passed: run.report?.passed ?? null }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    ws.close()
  }
}

export async function probe({ record }, { root }) {
  const window = await until(() => record.windows[0]?.webContents.page && record.windows[0], 'the window')
  const contents = window.webContents
  const page = contents.page
  await page.waitForSelector('[data-testid=app]', { timeout: 150_000 })
  const engine = record.forks[0]
  const start = engine.messages[0]
  const ready = engine.replies[0]
  const origin = ready.origin
  const channel = 'hookloop:engine-address'

  const address = await page.evaluate(() => window.hookloop.engineAddress())
  const ipc = {
    fromWindow: await outcome(invokeAs(record, contents, contents.mainFrame, channel, [])),
    fromSubframeOfOurOrigin: await outcome(invokeAs(record, contents, { url: `${origin}/` }, channel, [])),
    fromForeignSubframe: await outcome(invokeAs(record, contents, { url: `${ATTACKER}/` }, channel, [])),
    fromOtherWebContents: await outcome(invokeAs(record, { id: -1 }, { url: `${origin}/` }, channel, [])),
  }

  // A real navigation started by the page: main's will-navigate listener runs first.
  const navigations = []
  contents.on('will-navigate', (event, url) => navigations.push({ url, prevented: event.defaultPrevented }))
  await page.evaluate((url) => (location.href = url), `${ATTACKER}/phish`)
  await until(() => navigations.length > 0, 'will-navigate')

  const headersFor = (url) => new Promise((resolve) => record.session.headersReceived({ url, responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => resolve(r.responseHeaders)))
  const permission = await new Promise((resolve) => record.session.permissionRequest(contents, 'media', resolve, { requestingUrl: `${origin}/` }))

  const example = readFileSync(join(root, 'examples', 'provider-a-fail-first-3.json'), 'utf8')
  const loadedBeforeScenario = loadedNativeModules(engine.pid)
  const scenario = await runScenario(origin, address.token, example)

  return {
    windows: record.windows.map((w) => ({ options: w.options, shown: w.shown, url: w.webContents.getURL() })),
    preloadExists: existsSync(window.options.webPreferences.preload),
    fork: { modulePath: engine.modulePath, options: engine.options, messageTypes: engine.messages.map((m) => m.type) },
    start: { type: start.type, options: { ...start.options, token: undefined }, tokenLength: start.options.token.length },
    ready,
    rendererDirExists: existsSync(start.options.staticDir) && existsSync(join(start.options.staticDir, 'index.html')),
    exposed: [...record.exposed].map(([key, api]) => ({ key, members: Object.entries(api).map(([name, value]) => ({ name, type: typeof value })) })),
    pageBridge: await page.evaluate(() => Object.keys(window.hookloop)),
    address: { socketOrigin: address.socketOrigin, tokenIsTheEngines: address.token === start.options.token },
    ipc,
    navigations,
    urlAfterNavigation: page.url(),
    redirect: { foreign: emitted(contents, 'will-redirect', `${ATTACKER}/`), own: emitted(contents, 'will-redirect', `${origin}/next`) },
    webview: emitted(contents, 'will-attach-webview', {}, {}),
    windowOpen: contents.windowOpenHandler?.({ url: `${ATTACKER}/`, disposition: 'new-window' }) ?? null,
    permission,
    permissionCheck: record.session.permissionCheck(contents, 'media', origin, {}),
    csp: { foreign: (await headersFor(`${ATTACKER}/page`))['Content-Security-Policy'] ?? null, own: (await headersFor(`${origin}/`))['Content-Security-Policy'] ?? null },
    scenario,
    engineLoaded: { beforeScenario: loadedBeforeScenario, afterScenario: loadedNativeModules(engine.pid) },
    errorBoxes: record.errorBoxes,
  }
}
