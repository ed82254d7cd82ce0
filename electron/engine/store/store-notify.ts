// Which tables another process changed, told the moment its commit lands. On a team's PostgreSQL
// every write path tells, on one channel, the tables it wrote: a transaction of its own carries a
// NOTIFY; the group-commit writers (engine-writer.ts) tell right after each commit instead
// (commitNotices); each process LISTENs on a connection of its own and hears every other
// process's commits, with no polling loop that grows with the history. (A data folder has no such
// channel: a reader polls the file's PRAGMA data_version, change-reads.ts.)
import pg from 'pg'
import type { StoreTable } from './changes'
import type { SqlEngine } from './sql-engine'
import { unreachable } from './postgres-engine'
import { describePostgresUrl } from './store-location'

export const CHANGES_CHANNEL = 'hookloop_changes'

export interface ChangeListener {
  /** Stops listening and closes the connection. */
  close(): Promise<void>
}

export interface ListenOptions {
  url: string
  /** The tables one commit changed. */
  onChange: (tables: StoreTable[]) => void
  /** The listening connection was lost (the server restarted, the network dropped): re-read everything once it is back. */
  onLost?: (error: Error) => void
}

/** LISTENs on CHANGES_CHANNEL on a connection of its own; an unreachable server is a StoreError. */
export async function listenForChanges(options: ListenOptions): Promise<ChangeListener> {
  const client = new pg.Client({ connectionString: options.url, application_name: 'hookloop (changes)' })
  client.on('notification', (message) => {
    if (message.channel !== CHANGES_CHANNEL) return
    options.onChange((message.payload ?? '').split(',').filter(Boolean) as StoreTable[])
  })
  // Lost once, whichever comes first: an error (the server ended the session, the socket reset) or
  // the connection's end without one; never for an end this listener asked for (close), nor before
  // it listens (a failed start is the caller's StoreError).
  let listening = false
  let ending = false
  let lost = false
  const lose = (error: Error) => {
    if (!listening || ending || lost) return
    lost = true
    options.onLost?.(error)
  }
  client.on('error', lose)
  client.on('end', () => lose(new Error('the listening connection ended')))
  try {
    await client.connect()
    await client.query(`LISTEN ${CHANGES_CHANNEL}`)
    listening = true
  } catch (error) {
    await client.end().catch(() => undefined)
    throw unreachable(describePostgresUrl(options.url), error)
  }
  return {
    close: () => {
      ending = true
      return client.end()
    },
  }
}

/**
 * The notices of a group-commit writer's commits: `told()` after each commit sends one NOTIFY of
 * `tables` in a statement of its own, at most one at a time (commits told while one is on its way
 * make one more after it). A NOTIFY inside the commit would serialise every committing process:
 * PostgreSQL holds one lock per database on its notification queue from a NOTIFY's commit until
 * that commit is flushed (the wait `Lock:object` at COMMIT), so two processes' captures took turns
 * on it. Sent after the commit, a listener still never hears before the rows can be read. A notice
 * that fails is dropped: the next commit's tells the same tables.
 */
export function commitNotices(engine: SqlEngine, tables: string): { told(): void } {
  let sending = false
  let again = false
  const send = (): void => {
    sending = true
    again = false
    engine
      .get('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, tables])
      .catch(() => undefined)
      .finally(() => {
        sending = false
        if (again) send()
      })
  }
  return {
    told() {
      if (sending) again = true
      else send()
    },
  }
}
