// `npm install` on a machine that cannot download Electron: the project's postinstall runs
// Electron's real installer against a download mirror that answers 404 (a local server), in an
// empty download cache, and must say so in one line of its own, with no stack trace on stderr.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

let mirror: Server
let requests = 0
const cache = mkdtempSync(join(tmpdir(), 'hookloop-electron-cache-'))

beforeAll(async () => {
  mirror = createServer((_req, res) => {
    requests += 1
    res.writeHead(404).end('not here')
  })
  await new Promise<void>((done) => mirror.listen(0, '127.0.0.1', done))
})
afterAll(async () => {
  await new Promise((done) => mirror.close(done))
  rmSync(cache, { recursive: true, force: true })
})

function postinstall(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['scripts/install-electron-binary.mjs'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

describe('scripts/install-electron-binary.mjs when the Electron download fails', () => {
  it('prints one line naming the failure and leaves the install successful', async () => {
    const { port } = mirror.address() as AddressInfo
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: cache, force_no_cache: 'true' }
    delete env.ELECTRON_SKIP_BINARY_DOWNLOAD
    const run = await postinstall(env)
    expect(requests).toBeGreaterThan(0)
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.split('\n').filter((line) => line.trim() !== '')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^hookloop: the Electron binary could not be downloaded \(HTTPError: .*404.*\); the Electron window will not be available/)
  })
})
