import { contextBridge } from 'electron'

// Named, typed functions only; never a generic invoke(channel, ...args).
const hookloop = {
  platform: process.platform,
}

export type HookloopBridge = typeof hookloop

contextBridge.exposeInMainWorld('hookloop', hookloop)
