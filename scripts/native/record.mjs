// better-sqlite3 built for Electron lives apart from Node's build (node_modules keeps Node's for
// the CLI and the tests), with a record of what it was built for. `npm start`, the native build
// and the app's main process all judge the file through inspectNativeBuild, so a file built for
// another Electron, half written or damaged is named and replaced, never loaded.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const NATIVE_FILE = 'better_sqlite3.node'
export const RECORD_FILE = 'build.json'

/** native/electron under the app's folder (in a packaged app: outside the asar archive). */
export function nativeDir(appPath) {
  return join(appPath.replace(/\.asar$/, '.asar.unpacked'), 'native', 'electron')
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex')
}

// Each OS loads one format; anything else (an HTML error page, a truncated download) is refused.
const MAGIC = {
  linux: [[0x7f, 0x45, 0x4c, 0x46]],
  darwin: [[0xcf, 0xfa, 0xed, 0xfe], [0xce, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]],
  win32: [[0x4d, 0x5a]],
}

/**
 * What a native module file says about itself: whether it is a shared library for this OS, and
 * the NODE_MODULE_VERSION it registers for (Node's NODE_MODULE_INIT exports
 * node_register_module_v<ABI>; a module built for another ABI is refused by the loader).
 */
export function describeBinary(bytes, platform = process.platform) {
  const magics = MAGIC[platform] ?? []
  const library = magics.some((magic) => magic.every((byte, i) => bytes[i] === byte))
  const match = /node_register_module_v(\d+)/.exec(bytes.toString('latin1'))
  return { library, abi: match ? match[1] : null }
}

function readRecord(file) {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8'))
    if (!record || typeof record !== 'object' || typeof record.electron !== 'string' || typeof record.sha256 !== 'string') return null
    return record
  } catch {
    return null
  }
}

/**
 * expected: { electron, abi, platform, arch } of the Electron that will load the file.
 * Returns { state: 'ok', binding, record } or { state: 'missing' | 'no-record' | 'wrong-version' |
 * 'corrupt', binding, detail } where detail is one sentence naming what is wrong.
 */
export function inspectNativeBuild(dir, expected) {
  const binding = join(dir, NATIVE_FILE)
  const recordFile = join(dir, RECORD_FILE)
  if (!existsSync(binding)) return { state: 'missing', binding, detail: `${binding} does not exist` }
  if (!existsSync(recordFile)) return { state: 'no-record', binding, detail: `${binding} has no build record (${RECORD_FILE}), so which Electron it is for is unknown` }
  const record = readRecord(recordFile)
  if (!record) return { state: 'corrupt', binding, detail: `${recordFile} is not a valid build record` }
  const target = `Electron ${expected.electron} (${expected.platform}-${expected.arch})`
  if (record.electron !== expected.electron || record.platform !== expected.platform || record.arch !== expected.arch) {
    return { state: 'wrong-version', binding, record, detail: `${binding} was built for Electron ${record.electron} (${record.platform}-${record.arch}), not ${target}` }
  }
  const bytes = readFileSync(binding)
  if (bytes.length !== record.bytes || sha256(bytes) !== record.sha256) {
    return { state: 'corrupt', binding, record, detail: `${binding} is not the file its build record describes (${bytes.length} bytes, ${record.bytes} recorded): damaged or replaced` }
  }
  const found = describeBinary(bytes, expected.platform)
  if (!found.library) return { state: 'corrupt', binding, record, detail: `${binding} is not a native library for ${expected.platform}` }
  if (found.abi !== String(expected.abi)) {
    return { state: 'corrupt', binding, record, detail: `${binding} registers for NODE_MODULE_VERSION ${found.abi ?? 'none'}, ${target} needs ${expected.abi}` }
  }
  return { state: 'ok', binding, record }
}

/**
 * Moves a freshly built module into dir with its record. Checked before anything moves; each file
 * is written under a temporary name and renamed, the record last, so an interrupted install leaves
 * either the previous pair or a module without a matching record (refused by the check above),
 * never a file the engine would load and crash on.
 */
export function installNativeBuild(builtFile, dir, target, builtWith) {
  const bytes = readFileSync(builtFile)
  const found = describeBinary(bytes, target.platform)
  if (!found.library) throw new Error(`the build produced ${builtFile}, which is not a native library for ${target.platform}`)
  if (found.abi !== String(target.abi)) {
    throw new Error(`the build produced a module for NODE_MODULE_VERSION ${found.abi ?? 'none'}, Electron ${target.electron} needs ${target.abi}`)
  }
  mkdirSync(dir, { recursive: true })
  const record = {
    module: 'better-sqlite3',
    moduleVersion: target.moduleVersion,
    electron: target.electron,
    abi: String(target.abi),
    platform: target.platform,
    arch: target.arch,
    bytes: bytes.length,
    sha256: sha256(bytes),
    builtWith,
    builtAt: new Date().toISOString(),
  }
  const binding = join(dir, NATIVE_FILE)
  const recordFile = join(dir, RECORD_FILE)
  // The old record goes first: from here until the new one lands, no record vouches for the file.
  rmSync(recordFile, { force: true })
  writeAtomically(binding, bytes)
  writeAtomically(recordFile, `${JSON.stringify(record, null, 2)}\n`)
  return { binding, record }
}

function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, data)
    renameSync(temporary, file)
  } finally {
    rmSync(temporary, { force: true })
  }
}
