// groupRounds: a batch's requests in rounds, no two of one group (endpoint and dedupe key) in a
// round, so the request counters' row triggers see them change one at a time on both engines.
import { describe, expect, it } from 'vitest'
import { groupRounds } from '../../../electron/engine/store/history'

describe('groupRounds', () => {
  it('puts every request in the first round unless it shares a group with an earlier one', () => {
    expect(
      groupRounds([
        { id: 1, endpoint_id: 'a', dedupe_key: 'k1' },
        { id: 2, endpoint_id: 'a', dedupe_key: null },
        { id: 3, endpoint_id: 'a', dedupe_key: 'k1' },
        { id: 4, endpoint_id: 'b', dedupe_key: 'k1' },
        { id: 5, endpoint_id: 'a', dedupe_key: null },
        { id: 6, endpoint_id: 'a', dedupe_key: 'k1' },
        { id: 7, endpoint_id: null, dedupe_key: 'k1' },
      ]),
    ).toEqual([[1, 2, 4, 5, 7], [3], [6]])
    expect(groupRounds([])).toEqual([])
  })
})
