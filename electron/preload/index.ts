import { contextBridge, ipcRenderer } from 'electron'
import { BRIDGE_CHANNELS, type HookloopBridge } from '../../shared/bridge'

// Named, typed functions only; never a generic invoke(channel, ...args). Each one maps to its own
// channel, and the main process checks who sent every message.
const hookloop: HookloopBridge = {
  platform: process.platform,
  engineAddress: () => ipcRenderer.invoke(BRIDGE_CHANNELS.engineAddress),
  openFile: (options) => ipcRenderer.invoke(BRIDGE_CHANNELS.openFile, { title: String(options.title), extensions: options.extensions.map(String) }),
  saveFile: (options) =>
    ipcRenderer.invoke(BRIDGE_CHANNELS.saveFile, { title: String(options.title), defaultName: String(options.defaultName), text: String(options.text) }),
  secretStorage: () => ipcRenderer.invoke(BRIDGE_CHANNELS.secretStorage),
  saveSecret: (name, value) => ipcRenderer.invoke(BRIDGE_CHANNELS.saveSecret, String(name), String(value)),
  readSecret: (name) => ipcRenderer.invoke(BRIDGE_CHANNELS.readSecret, String(name)),
  listSecrets: () => ipcRenderer.invoke(BRIDGE_CHANNELS.listSecrets),
  deleteSecret: (name) => ipcRenderer.invoke(BRIDGE_CHANNELS.deleteSecret, String(name)),
}

contextBridge.exposeInMainWorld('hookloop', hookloop)
