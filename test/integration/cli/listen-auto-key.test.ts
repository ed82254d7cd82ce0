// `hookloop listen` with no configuration: its endpoint finds the event id on its own (a provider's
// id header, else the body's event_id or id), says where in the banner and on each line, and flags
// a second arrival of the same id as a duplicate.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { post, send } from '../receiver/support'

describe('hookloop listen without a config: the automatic dedupe key', () => {
  const temp = useTempDir('hookloop-listen-auto-')

  it('flags a repeated event_id, reads provider id headers, and says where it found each key', async () => {
    const data = join(temp.dir, 'data')
    const cli = await startListen(['--data', data])
    const lines = (count: number) => cli.waitForOutput((out) => out.split('\n').filter((l) => l.includes('status=')).length >= count)
    const { port, exited } = cli
    expect(cli.stdout).toMatch(/\/h\/default {2}verify=none {2}dedupe=auto: a provider's event id header, else the body's event_id or id/)

    const envelope = post('/h/default', '{"event_id":"e-1","event_type":"booking.created","payload":{}}')
    await send(port, envelope)
    await send(port, envelope)
    await send(port, post('/h/default', '{"id":"evt_1Nx","object":"event","data":{"object":{"id":"pi_1"}}}'))
    // Standard Webhooks' id header wins over the body's id: it is the one its consumers dedupe by.
    await send(port, post('/h/default', '{"type":"user.created","data":{"id":"user_1"}}', { 'webhook-id': 'msg_2abc' }))
    await send(port, post('/h/default', '{"zen":"Keep it logically awesome."}', { 'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' }))
    await send(port, post('/h/default', 'plain text, no id'))
    await lines(6)
    const log = cli.stdout.split('\n').filter((l) => l.includes('status='))
    expect(log[0]).toMatch(/key=e-1\(auto:body\.event_id\) {2}dup=- /)
    expect(log[1]).toMatch(/key=e-1\(auto:body\.event_id\) {2}dup=#2 /)
    expect(log[2]).toMatch(/key=evt_1Nx\(auto:body\.id\) {2}dup=- /)
    expect(log[3]).toMatch(/key=msg_2abc\(auto:webhook-id\) /)
    expect(log[4]).toMatch(/key=72d3162e-cc78-11e3-81ab-4c9367dc0958\(auto:x-github-delivery\) /)
    expect(log[5]).toMatch(/key=- {2}dup=- /)
    cli.kill()
    expect(await exited).toBe(0)

    // The ids are what `requests --event-id` finds, in any case.
    const found = await runCli(['requests', '--data', data, '--event-id', 'EVT_1', '--json'])
    expect(found.code).toBe(0)
    expect((JSON.parse(found.stdout) as { requests: { eventId: string }[] }).requests.map((r) => r.eventId)).toEqual(['evt_1Nx'])
    const dup = await runCli(['requests', '--data', data, '--status', 'duplicate', '--json'])
    expect((JSON.parse(dup.stdout) as { requests: { eventId: string; duplicateNumber: number }[] }).requests).toMatchObject([{ eventId: 'e-1', duplicateNumber: 2 }])
  })
})
