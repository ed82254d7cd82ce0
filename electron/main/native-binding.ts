// Which better-sqlite3 the engine process loads. Inside Electron it must be the build made for
// this Electron (native/electron/, judged by its build record: scripts/native/record.mjs, the
// same check `npm start` runs); node_modules holds Node's build for the CLI and the tests.
import { inspectNativeBuild, nativeDir } from '../../scripts/native/record.mjs'

export type NativeBindingChoice = { binding?: string } | { problem: string }

/**
 * appPath: app.getAppPath() (the project folder, or resources/app.asar in an installer).
 * electronVersion / abi: this runtime's (process.versions.electron and .modules).
 */
export function chooseNativeBinding(appPath: string, electronVersion: string, abi: string, packaged: boolean): NativeBindingChoice {
  const status = inspectNativeBuild(nativeDir(appPath), { electron: electronVersion, abi, platform: process.platform, arch: process.arch })
  const fix = packaged ? 'reinstall Hookloop' : 'run `npm run native` (or `npm start`, which rebuilds it)'
  switch (status.state) {
    case 'ok':
      return { binding: status.binding }
    case 'missing':
      // Not built: the engine tries node_modules' build, which is right only if it was made for
      // this runtime; otherwise its load error is reported with the same advice.
      if (packaged) return { problem: `better-sqlite3 for Electron is missing from this installation (${status.detail}); ${fix}` }
      return {}
    case 'no-record':
    case 'wrong-version':
    case 'corrupt':
      return { problem: `better-sqlite3 for Electron ${electronVersion}: ${status.detail}; ${fix}` }
    default: {
      const never: never = status
      return never
    }
  }
}
