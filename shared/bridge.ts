// What the Electron preload exposes to the renderer as `window.hookloop`: named, typed functions
// only. In browser mode there is no bridge; the renderer checks for it.

export interface EngineAddressView {
  /** ws://127.0.0.1:<port> */
  socketOrigin: string
  token: string
}

export interface OpenedFile {
  path: string
  name: string
  /** UTF-8 text of the file (scenario, HAR and case files are JSON). */
  text: string
}

export interface SecretStorageStatus {
  /** True when secrets are encrypted with the OS keychain / DPAPI / libsecret. */
  encrypted: boolean
  /** The backend Electron chose (Linux: gnome_libsecret, kwallet…, or basic_text). */
  backend: string
  /** Shown to the person when `encrypted` is false. */
  warning: string | null
}

export interface HookloopBridge {
  platform: string
  engineAddress(): Promise<EngineAddressView>
  openFile(options: { title: string; extensions: string[] }): Promise<OpenedFile | null>
  saveFile(options: { title: string; defaultName: string; text: string }): Promise<string | null>
  secretStorage(): Promise<SecretStorageStatus>
  saveSecret(name: string, value: string): Promise<void>
  readSecret(name: string): Promise<string | null>
  listSecrets(): Promise<string[]>
  deleteSecret(name: string): Promise<boolean>
}

/** IPC channel names, one per bridge function (never a generic channel). */
export const BRIDGE_CHANNELS = {
  engineAddress: 'hookloop:engine-address',
  openFile: 'hookloop:open-file',
  saveFile: 'hookloop:save-file',
  secretStorage: 'hookloop:secret-storage',
  saveSecret: 'hookloop:save-secret',
  readSecret: 'hookloop:read-secret',
  listSecrets: 'hookloop:list-secrets',
  deleteSecret: 'hookloop:delete-secret',
} as const
