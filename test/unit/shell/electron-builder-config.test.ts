// The installers' configuration, checked against electron-builder's own JSON schema (the one it
// validates with before building) and against what the app needs at run time.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

const require = createRequire(import.meta.url)
const config = require(resolve(REPO_ROOT, 'electron-builder.cjs')) as Record<string, unknown> & {
  files: string[]
  asarUnpack: string[]
  icon: string
  linux: { target: string[] }
  mac: { target: string }
  win: { target: string }
}
const schema = JSON.parse(readFileSync(resolve(REPO_ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as object
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)
const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> }

describe('electron-builder configuration', () => {
  it("is valid under electron-builder's schema", () => {
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true)
  })

  it('the schema check is not vacuous: an unknown or mistyped option is refused', () => {
    expect(validate({ ...config, nsiss: {} })).toBe(false)
    expect(validate({ ...config, linux: { target: 'AppImage', category: 42 } })).toBe(false)
  })

  it('builds AppImage and .deb, .dmg and NSIS, with product name, app id and an icon that exists', () => {
    expect(config.productName).toBe('Hookloop')
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/)
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toBe('dmg')
    expect(config.win.target).toBe('nsis')
    expect(existsSync(resolve(REPO_ROOT, config.icon))).toBe(true)
  })

  it("ships Electron's better-sqlite3 unpacked from the asar and leaves Node's build out", () => {
    expect(config.files).toContain('native/electron/better_sqlite3.node')
    expect(config.files).toContain('native/electron/build.json')
    expect(config.asarUnpack).toContain('native/electron/**')
    expect(config.files).toContain('!node_modules/better-sqlite3/{build,deps,src}/**')
    // electron-builder must not rebuild node_modules' copy for Electron: native/electron is it.
    expect(config.npmRebuild).toBe(false)
    expect(pkg.scripts.dist).toContain('scripts/native-build.mjs')
    expect(pkg.scripts.dist).toContain('electron-builder --config electron-builder.cjs')
  })

  it('packages the built app: main, preload and renderer come from out/', () => {
    expect(config.files).toContain('out/**/*')
    expect(pkg.main).toBe('out/main/index.js')
  })
})
