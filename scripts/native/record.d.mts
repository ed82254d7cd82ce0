// Types for record.mjs, which the app's main process imports (bundled by electron-vite).
export const NATIVE_FILE: string
export const RECORD_FILE: string

export interface NativeTarget {
  electron: string
  abi: string
  platform: NodeJS.Platform
  arch: string
}

export interface NativeRecord extends NativeTarget {
  module: 'better-sqlite3'
  moduleVersion: string
  bytes: number
  sha256: string
  builtWith: string
  builtAt: string
}

export type NativeBuildStatus =
  | { state: 'ok'; binding: string; record: NativeRecord }
  | { state: 'missing' | 'no-record' | 'wrong-version' | 'corrupt'; binding: string; record?: NativeRecord; detail: string }

export function nativeDir(appPath: string): string
export function describeBinary(bytes: Buffer, platform?: NodeJS.Platform): { library: boolean; abi: string | null }
export function inspectNativeBuild(dir: string, expected: NativeTarget): NativeBuildStatus
export function installNativeBuild(
  builtFile: string,
  dir: string,
  target: NativeTarget & { moduleVersion: string },
  builtWith: string,
): { binding: string; record: NativeRecord }
