// Recording on a team's PostgreSQL (a host as `serve --store postgres://…` runs it): refused with
// `unavailable`, in a message that says why (the recorder reads each event's deliveries at once),
// where the store is, and what runs there instead (a scenario file, `hookloop run --store`).
import { describe, expect, it } from 'vitest'
import { parseStoreLocation } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { commandFrame, connectControl } from './support/control-client'
import { useTeamHosts } from './support/team-hosts'

const postgres = usePostgres()
const { hostOn, cleanups } = useTeamHosts()

describe('recording a session on a team PostgreSQL', () => {
  it('is refused as unavailable, naming why, the store and what runs there instead', async () => {
    const url = await postgres.freshDatabase()
    const { host, token } = await hostOn(url)
    const browser = await connectControl(host, token)
    cleanups.push(() => browser.ws.close())
    const answer = await commandFrame(browser.ws, 'record.start', {})
    expect(answer.ok).toBe(false)
    expect(answer.error).toEqual({
      code: 'unavailable',
      message: `recording a session needs a data folder: the recorder reads each event's deliveries from the store at once, as the event is sent, which only a data folder's SQLite file answers, and this Hookloop runs on the team's PostgreSQL at ${parseStoreLocation(url).where}; a scenario file runs on it (hookloop run FILE --store postgres://…)`,
    })
    // Nothing was started: stopping says so.
    const stop = await commandFrame(browser.ws, 'record.stop', {})
    expect(stop.error?.message).toBe('no recording is running; press Record first')
  })
})
