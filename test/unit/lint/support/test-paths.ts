import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, normalize, relative } from 'node:path'

// Tests mirror the source (docs/ARCHITECTURE.md, "Tests"): a test named after a module it
// imports sits in that module's mirrored folder under test/unit/ or test/integration/. "Named
// after" means the same base name as a module the test imports for its values: a file by its own
// path, or a folder's door (index.ts), which is the module named after the folder. A name that
// only happens to match a module the test never imports (tunnel/delivery.test.ts beside
// shared/delivery.ts), or imports for types alone, or reaches through a door (a provider's test
// that signs through electron/engine/signatures), claims nothing.

const TEST_ROOTS = ['test/unit', 'test/integration']
const SOURCE_EXTENSIONS = ['.ts', '.tsx']

/** The folder under test/unit/ or test/integration/ where the tests of a source folder sit. */
export function mirrorOf(sourceDir: string): string | undefined {
  const [top, ...rest] = sourceDir.split('/')
  if (top === 'electron') {
    const [area, ...below] = rest
    if (area === 'engine') return below.length > 0 ? below.join('/') : 'engine'
    // The Electron shell's tests have always been called shell; electron/main is its source.
    if (area === 'main') return ['shell', ...below].join('/')
    return area === undefined ? undefined : [area, ...below].join('/')
  }
  if (top === 'renderer' && rest[0] === 'src') return ['renderer', ...rest.slice(1)].join('/')
  if (top === 'shared') return sourceDir
  return undefined
}

interface Module {
  name: string
  file: string
  /** The test folders where a test named after it may sit. */
  homes: string[]
}

export interface Tree {
  isFile(path: string): boolean
  isDir(path: string): boolean
  list(dir: string): string[]
}

export const realTree = (root: string): Tree => ({
  isFile: (path) => existsSync(join(root, path)) && statSync(join(root, path)).isFile(),
  isDir: (path) => existsSync(join(root, path)) && statSync(join(root, path)).isDirectory(),
  list: (dir) => readdirSync(join(root, dir)),
})

/** The module a source file is: a folder's door (index.ts) is the module named after the folder. */
function moduleOf(file: string): Module[] {
  const ext = SOURCE_EXTENSIONS.find((e) => file.endsWith(e))
  if (!ext) return []
  const dir = dirname(file)
  const name = basename(file, ext)
  // A door's tests sit in its folder's mirror, or beside the folder in its parent's mirror.
  const homes = name === 'index' ? [mirrorOf(dir), mirrorOf(dirname(dir))] : [mirrorOf(dir)]
  const known = homes.filter((h) => h !== undefined)
  return known.length === 0 ? [] : [{ name: name === 'index' ? basename(dir) : name, file, homes: known }]
}

/** The source module an import specifier names: a file, or a folder by its door. */
function reached(tree: Tree, target: string): Module[] {
  const files = [...SOURCE_EXTENSIONS.map((ext) => target + ext), target, ...SOURCE_EXTENSIONS.map((ext) => `${target}/index${ext}`)]
  const file = files.find((f) => tree.isFile(f))
  return file === undefined ? [] : moduleOf(file)
}

// Value imports only: `import type` names a shape, not the module under test.
const SPECIFIER = /(?:^import\s+(?!type\s)[^'"]*?from|import\()\s*'(\.{1,2}\/[^']+)'/gm

export interface Misplaced {
  test: string
  module: string
  expected: string[]
}

/** Every test under test/unit/ or test/integration/ named after a module it reaches, outside that module's mirror. */
export function misplacedTests(tree: Tree, readText: (path: string) => string, extraTests: string[] = []): Misplaced[] {
  const tests = [...TEST_ROOTS.flatMap((root) => testsUnder(tree, root)), ...extraTests]
  return tests.flatMap((test) => {
    const root = TEST_ROOTS.find((r) => test.startsWith(`${r}/`))
    if (!root) return []
    const name = basename(test).replace(/\.test\.tsx?$/, '')
    const folder = relative(root, dirname(test))
    const claims = [...readText(test).matchAll(SPECIFIER)]
      .flatMap((match) => reached(tree, normalize(join(dirname(test), match[1]!)).replace(/\.js$/, '')))
      .filter((m) => m.name === name)
    if (claims.length === 0 || claims.some((m) => m.homes.includes(folder))) return []
    return [{ test, module: claims.map((m) => m.file).join(', '), expected: [...new Set(claims.flatMap((m) => m.homes.map((h) => `${root}/${h}/`)))] }]
  })
}

function testsUnder(tree: Tree, dir: string): string[] {
  return tree.list(dir).flatMap((entry) => {
    const path = `${dir}/${entry}`
    if (tree.isDir(path)) return testsUnder(tree, path)
    return /\.test\.tsx?$/.test(entry) ? [path] : []
  })
}

export const readFrom = (root: string) => (path: string) => readFileSync(join(root, path), 'utf8')
