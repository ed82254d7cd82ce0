// `hookloop serve` as a process from the build: the URL (with the token) is the first line, the
// port is the one asked for, the page carries the CSP, bad usage exits 2, SIGTERM stops it.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../support/temp-dir'
import { freePort } from '../../support/loopback'

const CLI = resolve('out/main/cli.js')
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

describe('hookloop serve', () => {
  it('prints the URL with the token first, serves the app there with its CSP, and stops on SIGTERM', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const port = await freePort()
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const first = await new Promise<string>((done) => createInterface({ input: child.stdout }).once('line', done))
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#token=[A-Za-z0-9_-]{43}$`))
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ws://127.0.0.1:${port}`)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('refuses a bad port with one line on stderr and exit 2', () => {
    const run = spawnSync(process.execPath, [CLI, 'serve', '--port', 'eighty'], { encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual(['hookloop: serve: --port must be a port number 0–65535, got "eighty"'])
    expect(run.stdout).toBe('')
  })
})
