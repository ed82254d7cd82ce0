import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dataFlagOf, DataDirError, defaultDataDir, resolveDataDir } from '../../../electron/engine/data-dir'

// One rule for every front door: --data, else $HOOKLOOP_DATA, else the platform's user data folder.
describe('the data folder', () => {
  const env = { XDG_DATA_HOME: '/xdg' }
  it('takes --data first, then HOOKLOOP_DATA, then the user data folder', () => {
    expect(resolveDataDir('/flag', { ...env, HOOKLOOP_DATA: '/env' }, 'linux')).toBe('/flag')
    expect(resolveDataDir(undefined, { ...env, HOOKLOOP_DATA: '/env' }, 'linux')).toBe('/env')
    expect(resolveDataDir(undefined, env, 'linux')).toBe('/xdg/hookloop')
    expect(resolveDataDir(undefined, env, 'linux')).toBe(defaultDataDir(env, 'linux'))
  })
  it('reads an empty HOOKLOOP_DATA as unset and a relative folder from the working directory', () => {
    expect(resolveDataDir(undefined, { ...env, HOOKLOOP_DATA: '' }, 'linux')).toBe('/xdg/hookloop')
    expect(resolveDataDir(undefined, { ...env, HOOKLOOP_DATA: 'here/data' }, 'linux')).toBe(resolve('here/data'))
    expect(resolveDataDir('rel', env, 'linux')).toBe(resolve('rel'))
  })
  it('refuses an empty --data, saying so', () => {
    expect(() => resolveDataDir('  ', env, 'linux')).toThrow(DataDirError)
    expect(() => resolveDataDir('', env, 'linux')).toThrow('--data needs a folder, got an empty value')
  })
  it("finds the app's --data among Electron's arguments", () => {
    expect(dataFlagOf(['/opt/Hookloop/hookloop', '--no-sandbox', '--data', '/d'])).toBe('/d')
    expect(dataFlagOf(['/opt/Hookloop/hookloop', '--data=/e'])).toBe('/e')
    expect(dataFlagOf(['/opt/Hookloop/hookloop', '--smoke-test'])).toBeUndefined()
    expect(dataFlagOf(['/opt/Hookloop/hookloop', '--data'])).toBe('')
  })
})
