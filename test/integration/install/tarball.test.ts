// Hookloop installed from the tarball `npm pack` makes (what the release workflow attaches to a
// GitHub release): with no package on npm, a project that installs the tarball runs `hookloop
// run` and imports `hookloop/testing`. The tarball is unpacked into the project's node_modules as
// npm would; its dependencies are linked from this repository's node_modules, standing in for
// the registry downloads of `npm install` (tests here install nothing).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const PKG = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; scripts: Record<string, string>; dependencies: Record<string, string> }

let temp: ReturnType<typeof makeTempDir>
let project: string
beforeAll(() => {
  for (const built of ['out/main/cli.js', 'out/testing/index.mjs']) {
    if (!existsSync(resolve(REPO_ROOT, built))) throw new Error(`${built} is missing: run npm run build first`)
  }
  temp = makeTempDir('hookloop-tarball-')
  // The build already ran (prepack runs it in a release); here it would rebuild the tree other tests read.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp.dir], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as { filename: string }[]
  project = join(temp.dir, 'project')
  const modules = join(project, 'node_modules')
  mkdirSync(modules, { recursive: true })
  execFileSync('tar', ['-xzf', join(temp.dir, packed[0]!.filename), '-C', modules])
  renameSync(join(modules, 'package'), join(modules, PKG.name))
  for (const dep of Object.keys(PKG.dependencies)) {
    mkdirSync(dirname(join(modules, dep)), { recursive: true })
    symlinkSync(resolve(REPO_ROOT, 'node_modules', dep), join(modules, dep), 'dir')
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
})
afterAll(() => temp?.cleanup())

describe('Hookloop from a release tarball', () => {
  it('npm pack builds first, so a tarball never lacks the built CLI and library', () => {
    expect(PKG.scripts.prepack).toBe('npm run build')
  })

  it('runs hookloop run from the installed package', () => {
    const run = spawnSync(process.execPath, [join(project, 'node_modules/hookloop/bin/hookloop.js'), 'run', resolve(REPO_ROOT, 'examples/provider-a-fail-first-3.json')], { cwd: project, encoding: 'utf8' })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('PASS: 9 of 9 expectations hold')
  })

  it('imports hookloop/testing in a project that installed it', () => {
    writeFileSync(
      join(project, 'check.mjs'),
      `import { startReceiver } from 'hookloop/testing'
const receiver = await startReceiver({ endpoints: [{ slug: 'orders' }] })
const answer = await fetch(receiver.endpointUrl('orders'), { method: 'POST', body: '{"id":1}' })
const arrived = await receiver.nextRequest({ endpoint: 'orders' })
console.log(answer.status, arrived.json().id)
await receiver.close()
`,
    )
    const run = spawnSync(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('200 1')
  })
})
