// Where a store is: a data folder's SQLite file (the default, one user), or a PostgreSQL URL (a
// team's server). Given as `--store`, else HOOKLOOP_STORE; a folder may also come from `--data`.
import { join } from 'node:path'
import { DATA_FILE_NAME } from './data-file'
import { StoreError } from './store-error'

export type StoreLocation =
  | { kind: 'sqlite'; file: string; where: string }
  | { kind: 'postgres'; url: string; where: string }

const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:'])

/** A PostgreSQL URL or a data folder (its `hookloop.db`), or a `.db` file named as such. */
export function parseStoreLocation(value: string): StoreLocation {
  const text = value.trim()
  if (text === '') throw new StoreError('bad_location', 'the store is empty: give a data folder or a postgres://user:password@host:5432/database URL')
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new StoreError('bad_location', `the store URL does not parse: ${hidePassword(text)} (expected postgres://user:password@host:5432/database)`)
    }
    if (!POSTGRES_SCHEMES.has(url.protocol)) {
      throw new StoreError('bad_location', `the store URL's scheme ${url.protocol.replace(/:$/, '')}:// is not one Hookloop stores in: give postgres:// (a team's PostgreSQL) or a data folder`)
    }
    if (url.pathname.replace(/^\//, '') === '') throw new StoreError('bad_location', `the store URL names no database: ${describePostgresUrl(text)} (add /DATABASE after the host)`)
    return { kind: 'postgres', url: text, where: describePostgresUrl(text) }
  }
  const file = text.endsWith('.db') ? text : join(text, DATA_FILE_NAME)
  return { kind: 'sqlite', file, where: file }
}

/** postgres://user@host:port/database: what a message may print (the password never). */
export function describePostgresUrl(value: string): string {
  try {
    const url = new URL(value)
    const user = url.username ? `${decodeURIComponent(url.username)}@` : ''
    // The path is hidden too: a URL pasted inside another (a doubled --store) carries its password there.
    return `postgres://${user}${url.hostname || 'localhost'}:${url.port || '5432'}${hidePassword(decodeURIComponent(url.pathname))}`
  } catch {
    return hidePassword(value)
  }
}

function hidePassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*:)[^@]*@/g, '$1***@')
}
