// The Electron that `npm install` put in node_modules: its version, the NODE_MODULE_VERSION it
// loads (the package ships it as abi_version) and its binary, which is absent when the download
// was skipped or failed.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export function installedElectron(root) {
  const dir = join(root, 'node_modules', 'electron')
  const pkgFile = join(dir, 'package.json')
  if (!existsSync(pkgFile)) return null
  const version = JSON.parse(readFileSync(pkgFile, 'utf8')).version
  const abiFile = join(dir, 'abi_version')
  const abi = existsSync(abiFile) ? readFileSync(abiFile, 'utf8').trim() : null
  const pathFile = join(dir, 'path.txt')
  const candidate = existsSync(pathFile) ? join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null
  return {
    version,
    abi,
    binary: candidate && existsSync(candidate) ? candidate : null,
    target: { electron: version, abi, platform: process.platform, arch: process.arch },
  }
}
