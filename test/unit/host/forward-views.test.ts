import { describe, expect, it } from 'vitest'
import { appMark } from '../../../electron/engine/host/forward-views'

describe('the app line under a timeline mark', () => {
  it('says in a few words whether the app saw a request', () => {
    expect(appMark({ outcome: 'answered', status: 200, latencyMs: 12 }, 1)).toMatchObject({ label: 'app: 200 in 12 ms', tone: 'ok' })
    expect(appMark({ outcome: 'answered', status: 500, latencyMs: 3 }, 2)).toMatchObject({ label: 'app: 500 in 3 ms ×2', tone: 'failed' })
    expect(appMark({ outcome: 'answered', status: 404, latencyMs: null }, 1)).toMatchObject({ label: 'app: 404', tone: 'final' })
    expect(appMark({ outcome: 'refused', status: null, latencyMs: 1 }, 1)).toMatchObject({ label: 'app: down', tone: 'failed' })
    expect(appMark({ outcome: 'timed_out', status: null, latencyMs: 30_000 }, 1)).toMatchObject({ label: 'app: no answer in time' })
    expect(appMark({ outcome: 'aborted', status: null, latencyMs: null }, 1)).toMatchObject({ label: 'app: cut short', tone: 'pending' })
  })
})
