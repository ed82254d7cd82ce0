import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'
import { assertBuilt } from './support'

// What a consumer of the package gets: the declarations type-check a TypeScript test file under
// both module resolutions (a declaration that does not resolve decays to `any`, which the
// file's @ts-expect-error lines catch), and npm packs the built library with its declarations.
const run = promisify(execFile)
const TSC = resolve(REPO_ROOT, 'node_modules/typescript/bin/tsc')
const CONSUMER = resolve(REPO_ROOT, 'test/testing/types/consumer.mts')

async function typecheck(module: string, moduleResolution: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', module, '--moduleResolution', moduleResolution, '--types', 'node', CONSUMER], { cwd: REPO_ROOT })
    return ''
  } catch (error) {
    return (error as { stdout?: string }).stdout || String(error)
  }
}

describe('the hookloop/testing package', () => {
  beforeAll(assertBuilt)

  it('its declarations type a test file under moduleResolution bundler', async () => {
    expect(await typecheck('esnext', 'bundler')).toBe('')
  }, 180_000)

  it('its declarations type a test file under moduleResolution nodenext', async () => {
    expect(await typecheck('nodenext', 'nodenext')).toBe('')
  }, 180_000)

  it('npm pack ships the ESM and CommonJS builds and the declarations the exports name', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })
    const files = new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path))
    const pkg = (await import(resolve(REPO_ROOT, 'package.json'), { with: { type: 'json' } })).default as { exports: Record<string, Record<string, string>> }
    const testing = pkg.exports['./testing']!
    for (const condition of ['types', 'import', 'require', 'default']) {
      expect(files, `${condition}: ${testing[condition]}`).toContain(testing[condition]!.replace(/^\.\//, ''))
    }
    expect(files).toContain('out/testing/types/electron/testing/receiver.d.ts')
  })
})
