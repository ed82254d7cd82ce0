// `--json` on every command that reports results, as real processes: stdout is one JSON document
// (`listen --json`: one JSON object per line, NDJSON) and parses; logs stay on stderr. The
// commands run on one data folder `hookloop listen --json` captured into, against a real HTTP
// target that answers 200.
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ListenJsonLine } from '../../../electron/cli/listen-json'
import { sign } from '../../../electron/engine/signatures'
import { CLI_PATH, REPO_ROOT, runCli, type CliResult } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

let temp: ReturnType<typeof makeTempDir>
let data: string
let target: Server
let targetUrl: string

beforeAll(async () => {
  temp = makeTempDir('hookloop-json-')
  data = join(temp.dir, 'data')
  target = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`
})
afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()))
  temp.cleanup()
})

/** The one JSON document a command printed, after checking nothing else was printed there. */
function document<T = Record<string, unknown>>(result: CliResult): T {
  expect(result.signal).toBeNull()
  return JSON.parse(result.stdout) as T
}

describe('--json', () => {
  it('listen --json prints one JSON object per answered request on stdout, every other line on stderr', async () => {
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks' }] }))
    const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', '--data', data, '--config', config, '--json'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString()
        if (stderr.includes('Press Ctrl-C to stop.')) resolve()
      })
      child.on('close', () => reject(new Error(`listen ended: ${stderr}`)))
    })
    expect(stdout).toBe('')
    const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1])
    const body = '{"type":"order.paid"}'
    for (const secret of [SECRET, SECRET, 'whsec_d3JvbmcgLSB3cm9uZyAtIHdyb25nIC0gd3Jvbmc=']) {
      const headers = sign('standard-webhooks', { body: Buffer.from(body), secret, id: secret === SECRET ? 'msg_one' : 'msg_two' })
      await (await fetch(`http://127.0.0.1:${port}/h/shop`, { method: 'POST', headers, body })).arrayBuffer()
    }
    for (let i = 0; i < 500 && stdout.split('\n').length < 4; i++) await new Promise((r) => setTimeout(r, 10))
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as ListenJsonLine)
    expect(lines.map((l) => [l.endpoint, l.eventId, l.verdict, l.duplicateNumber, l.status])).toEqual([
      ['shop', 'msg_one', 'valid', 1, 200],
      ['shop', 'msg_one', 'valid', 2, 200],
      ['shop', 'msg_two', 'invalid', 1, 200],
    ])
    expect(lines[2]?.verifyReason).toBe('signature_mismatch')
    expect(stderr).toMatch(/Stopped\. 3 requests in /)
  })

  it('requests, deliveries, resend, export, import, replay, conform and prune print one JSON document', async () => {
    const listed = document<{ requests: Array<{ id: number }> }>(await runCli(['requests', '--data', data, '--json']))
    expect(listed.requests).toHaveLength(3)
    expect(document<{ deliveries: unknown[] }>(await runCli(['deliveries', '--data', data, '--json'])).deliveries).toEqual([])

    const resent = await runCli(['resend', String(listed.requests[0]!.id), '--to', targetUrl, '--data', data, '--json'])
    expect(resent.code).toBe(0)
    expect(document(resent)).toMatchObject({ outcome: 'answered', response: { status: 200 } })

    const har = join(temp.dir, 'all.har')
    const exported = await runCli(['export', '--data', data, '--format', 'har', '--all', '--out', har, '--json'])
    expect(exported.code).toBe(0)
    expect(document(exported)).toMatchObject({ out: har, format: 'har', requests: listed.requests.map((r) => r.id).reverse(), deliveries: [] })

    const scenario = join(temp.dir, 'incident.json')
    const imported = await runCli(['import', har, '--as-scenario', scenario, '--secret', SECRET, '--json'])
    expect(imported.code).toBe(0)
    // Notes go to stderr; progress does not, on a pipe.
    expect(imported.stderr).not.toContain('\r')
    expect(document(imported)).toMatchObject({ out: scenario, events: expect.any(Number) as number, run: expect.stringContaining('hookloop run') as string })

    const replayed = await runCli(['replay', har, '--to', targetUrl, '--json'])
    expect(document<{ results: unknown[] }>(replayed).results).toHaveLength(3)

    const conformed = await runCli(['conform', '--data', data, '--endpoint', 'shop', '--policy', 'standard-webhooks', '--json'])
    expect(conformed.code === 0 || conformed.code === 1).toBe(true)
    expect(document(conformed)).toMatchObject({ endpoint: 'shop', events: expect.any(Array) as unknown[] })

    const pruned = await runCli(['prune', '--data', data, '--all', '--json'])
    expect(pruned.code).toBe(0)
    expect(pruned.stderr).toBe('')
    // The resend stored a leg beside its request, not a request.
    expect(document(pruned)).toMatchObject({ deleted: 3 })
  })

  it('sign, verify, trigger, check and run print one JSON document', async () => {
    const bodyFile = join(temp.dir, 'body.json')
    writeFileSync(bodyFile, '{"type":"order.paid"}')
    const signed = await runCli(['sign', '--scheme', 'standard-webhooks', '--secret', SECRET, '--body-file', bodyFile, '--id', 'msg_1', '--json'])
    expect(signed.code).toBe(0)
    const headers = document<Record<string, string>>(signed)
    expect(headers['webhook-id']).toBe('msg_1')
    const headersFile = join(temp.dir, 'headers.json')
    writeFileSync(headersFile, JSON.stringify(headers))
    const verified = await runCli(['verify', '--scheme', 'standard-webhooks', '--secret', SECRET, '--body-file', bodyFile, '--headers-file', headersFile, '--json'])
    expect(document(verified)).toMatchObject({ valid: true, reason: 'ok' })

    const triggered = await runCli(['trigger', 'stripe', 'payment_intent.succeeded', '--to', targetUrl, '--secret', 'whsec_hookloopJson', '--json'])
    expect(triggered.code).toBe(0)
    expect(document(triggered)).toMatchObject({ ok: true, provider: 'stripe', event_type: 'payment_intent.succeeded' })

    const checked = await runCli(['check', targetUrl, '--scheme', 'standard-webhooks', '--secret', SECRET, '--samples', '1', '--json'])
    // The target answers 200 to everything, a bad signature too: the check fails, and says so in JSON.
    expect(checked.code).toBe(1)
    expect(document(checked)).toHaveProperty('checks')

    const ran = await runCli(['run', join(REPO_ROOT, 'examples/duplicate-bad-signature.json'), '--data', join(temp.dir, 'run'), '--json'])
    expect(ran.code).toBe(0)
    expect(document(ran)).toMatchObject({ ok: true })
  })
})
