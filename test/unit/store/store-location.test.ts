import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describePostgresUrl, parseStoreLocation } from '../../../electron/engine/store/store-location'

describe('parseStoreLocation', () => {
  it('takes a postgres URL as a team store and never repeats its password', () => {
    const location = parseStoreLocation('postgres://team:s3cret@db.internal:6543/hookloop')
    expect(location).toEqual({ kind: 'postgres', url: 'postgres://team:s3cret@db.internal:6543/hookloop', where: 'postgres://team@db.internal:6543/hookloop' })
    expect(parseStoreLocation('postgresql://team@db/hookloop').where).toBe('postgres://team@db:5432/hookloop')
  })

  it("takes anything else as a data folder, or a .db file as itself", () => {
    expect(parseStoreLocation('/data/hook')).toEqual({ kind: 'sqlite', file: join('/data/hook', 'hookloop.db'), where: join('/data/hook', 'hookloop.db') })
    expect(parseStoreLocation('/data/hook/team.db')).toMatchObject({ kind: 'sqlite', file: '/data/hook/team.db' })
  })

  it('refuses a URL of another scheme, one without a database, and nothing', () => {
    expect(() => parseStoreLocation('mysql://u:p@h/db')).toThrow(/mysql:\/\/ is not one Hookloop stores in/)
    expect(() => parseStoreLocation('postgres://u:hidden@h:5432/')).toThrow(/names no database: postgres:\/\/u@h:5432\//)
    expect(() => parseStoreLocation('postgres://u:hidden@h:5432/')).not.toThrow(/hidden/)
    expect(() => parseStoreLocation('  ')).toThrow(/the store is empty/)
  })

  it('describes a URL without its password', () => {
    expect(describePostgresUrl('postgres://a:b@h/db')).toBe('postgres://a@h:5432/db')
    // A URL pasted inside another: the inner one's password is in the path.
    const nested = describePostgresUrl('postgres://a:b@h/postgres://c:s3cret@k/db')
    expect(nested).not.toContain('s3cret')
    expect(nested).toBe('postgres://a@h:5432/postgres://c:***@k/db')
    expect(describePostgresUrl('not a url postgres://c:s3cret@k/db and postgres://d:t0p@m/db')).not.toMatch(/s3cret|t0p/)
  })
})
