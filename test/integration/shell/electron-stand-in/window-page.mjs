// The stand-in's renderer: the window's page in real headless Chromium, with the window's preload
// run the way a sandboxed preload runs (its require knows only 'electron' and a few core
// modules, no Node globals beyond a small `process`) and its contextBridge API given to the page.
// Each call from the page goes through the preload's own function to ipcMain's handler with the
// calling frame as senderFrame, as Electron's IPC would carry it.
/* global window -- the init script runs in the page */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import vm from 'node:vm'
import { chromium } from 'playwright-core'
import { preventable } from './event.mjs'

const CHROMIUM = process.env.HOOKLOOP_CHROMIUM ?? '/usr/bin/chromium'
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
const SANDBOXED_MODULES = new Set(['events', 'timers', 'url'])

const nodeRequire = createRequire(import.meta.url)
let currentFrame = null

/** ipcRenderer.invoke as Electron carries it: to the handler with sender and senderFrame. */
export async function invokeAs(record, sender, senderFrame, channel, args) {
  const handler = record.ipcHandlers.get(channel)
  if (!handler) throw new Error(`No handler registered for '${channel}'`)
  try {
    return structuredClone(await handler({ sender, senderFrame }, ...structuredClone(args)))
  } catch (error) {
    throw new Error(`Error invoking remote method '${channel}': ${error}`)
  }
}

async function runPreload(file, contents, record) {
  const renderer = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        if (record.exposed.has(key)) throw new Error(`Cannot bind an API on top of an existing property on the window object (${key})`)
        record.exposed.set(key, api)
      },
    },
    ipcRenderer: {
      // The frame is taken synchronously: the bridge function calls invoke before it returns.
      invoke: (channel, ...args) => invokeAs(record, contents, currentFrame, channel, args),
    },
  }
  const require = (name) => {
    if (name === 'electron') return renderer
    if (SANDBOXED_MODULES.has(name)) return nodeRequire(name)
    throw new Error(`module not found: ${name} (a sandboxed preload can require only electron, events, timers and url)`)
  }
  const module = { exports: {} }
  const sandboxProcess = { platform: process.platform, arch: process.arch, versions: { ...process.versions }, env: {} }
  const context = vm.createContext({ require, module, exports: module.exports, process: sandboxProcess, console, Buffer, setTimeout, clearTimeout })
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file })
}

function describeApi(api) {
  return Object.entries(api).map(([name, value]) => (typeof value === 'function' ? { name, kind: 'function' } : { name, kind: 'value', value }))
}

export async function openWindowPage(contents, url, record) {
  const preferences = contents.window.options?.webPreferences ?? {}
  if (preferences.preload) await runPreload(preferences.preload, contents, record)
  const profile = mkdtempSync(join(tmpdir(), 'hookloop-shell-chromium-'))
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS })
  contents.browser = { close: async () => (await browser.close(), rmSync(profile, { recursive: true, force: true })) }
  const page = browser.pages()[0] ?? (await browser.newPage())
  const frames = new Map()
  const frameFor = (frame) => {
    if (frame === page.mainFrame()) return contents.mainFrame
    if (!frames.has(frame)) frames.set(frame, { get url() { return frame.url() } })
    return frames.get(frame)
  }
  await page.exposeBinding('__hookloopStandIn', (source, key, name, args) => {
    currentFrame = frameFor(source.frame)
    try {
      return record.exposed.get(key)[name](...args)
    } finally {
      currentFrame = null
    }
  })
  const bridges = [...record.exposed].map(([key, api]) => ({ key, members: describeApi(api) }))
  await page.addInitScript((list) => {
    for (const { key, members } of list) {
      const api = {}
      for (const member of members) {
        api[member.name] = member.kind === 'function' ? (...args) => window.__hookloopStandIn(key, member.name, args) : member.value
      }
      Object.defineProperty(window, key, { value: Object.freeze(api), enumerable: true })
    }
  }, bridges)
  // Renderer-initiated navigations of the top frame go past will-navigate, as in Electron
  // (loadURL itself does not).
  let loaded = false
  await browser.route('**/*', (route, request) => {
    if (!loaded || !request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.continue()
    const event = preventable()
    contents.emit('will-navigate', event, request.url())
    return event.defaultPrevented ? route.abort('aborted') : route.continue()
  })
  await page.goto(url, { waitUntil: 'load' })
  loaded = true
  return page
}
