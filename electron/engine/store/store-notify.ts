// Which tables another process changed, told the moment its commit lands. On a team's PostgreSQL
// every write path's commit carries a NOTIFY on one channel naming the tables it wrote
// (engine-writer.ts); each process LISTENs on a connection of its own and hears every other
// process's commits, with no polling loop that grows with the history. (A data folder has no such
// channel: a reader polls the file's PRAGMA data_version, change-reads.ts.)
import pg from 'pg'
import type { StoreTable } from './changes'
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
