// Two engines on one data folder (two windows, two processes, an agent) editing one rule: each
// edit names the revision it was made on, and an edit made on an older revision than the store's
// is refused as a conflict, naming both, with nothing written; the other edit stays.
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { EditConflictError, type Rule } from '../../../shared/receiver'
import { useTempDir } from '../../support/use-temp-dir'

const temp = useTempDir()
const reply = (status: number) => ({ matchers: [], steps: [{ type: 'reply', status }] })

describe('editing one rule from two places', () => {
  it('the edit made on an older revision is refused and names both; the store keeps the other', async () => {
    const open = () => createEngine({ dataDir: temp.dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
    const a = await open()
    const b = await open()
    try {
      const endpoint = await a.putEndpoint({ slug: 'shop', secrets: [], rules: [] })
      const added = await a.receiver.rules.add(endpoint.id, reply(500))
      expect(added.revision).toBe(1)

      // Both open revision 1; B saves first.
      const saved = await b.receiver.rules.update(added.id, reply(429), 1)
      expect(saved.revision).toBe(2)
      let refused: unknown
      try {
        await a.receiver.rules.update(added.id, reply(410), 1)
      } catch (error) {
        refused = error
      }
      expect(refused).toBeInstanceOf(EditConflictError)
      expect(refused).toMatchObject({ given: 1, current: 2 })
      expect((refused as Error).message).toMatch(/^rule [0-9a-f-]+ was changed elsewhere .* revision 1, it is now at revision 2\. Nothing was saved/)
      const stored = a.db.prepare('SELECT definition_json, revision FROM rules WHERE id = ?').get(added.id) as { definition_json: string; revision: number }
      expect((JSON.parse(stored.definition_json) as Rule & { steps: Array<{ status: number }> }).steps[0]?.status).toBe(429)
      expect(stored.revision).toBe(2)

      // Reloaded, A's edit on revision 2 goes through; turning the rule off counts as a change too.
      expect((await a.receiver.rules.update(added.id, reply(410), 2)).revision).toBe(3)
      expect(await a.receiver.rules.enable(added.id, false)).toBe(true)
      expect(a.receiver.rules.list().find((r) => r.id === added.id)?.revision).toBe(4)
      await expect(b.receiver.rules.update(added.id, reply(200), 3)).rejects.toThrow(EditConflictError)
      // An edit that names no revision (a listen config, a script) replaces whatever is there.
      expect((await b.receiver.rules.update(added.id, reply(200))).revision).toBe(5)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
