// Where `hookloop listen` captures: the SQLite file of a data folder (its receiver writes on the
// folder's connection, commits on a thread of its own), or a team's PostgreSQL (`--store
// postgres://…`, HOOKLOOP_STORE), where the receiver captures through the store's engine writer,
// as `serve` does there. Either way the rest of listen reads and writes through SqlEngine.
import { join } from 'node:path'
import type { Receiver, ReceiverOptions } from '../engine/receiver'
import type { createRetention } from '../engine/retention'
import {
  createCountReadsOn,
  DATA_FILE_NAME,
  openDatabase,
  openStore,
  parseStoreLocation,
  postgresChangeFeed,
  sqliteChangeFeed,
  storeOfDatabase,
  type OpenedStore,
  type StoreChangeFeed,
} from '../engine/store'

type CaptureHooks = NonNullable<Parameters<typeof createRetention>[0]['capture']>

export interface ListenStore extends OpenedStore {
  /** How the banner and the last line name it: the data file, or postgres://user@host:port/db (never the password). */
  where: string
  /** What the receiver is given to capture into. */
  receiverStore: Pick<ReceiverOptions, 'db' | 'store' | 'secrets'>
  /** What retention flushes and tells of deleted rows. */
  capture(receiver: Receiver): CaptureHooks
  /** Other processes' changes (the app, `serve`, another `listen`): endpoints, rules, breakpoints. */
  changes(): Promise<StoreChangeFeed>
  /** The captured requests in the store. */
  requests(): Promise<number>
  close(): Promise<void>
}

/** Opens the data folder's file (made when missing) or the team's store (migrated, with its data key). */
export async function openListenStore(target: { dataDir: string } | { url: string; where: string }): Promise<ListenStore> {
  if ('dataDir' in target) {
    const file = join(target.dataDir, DATA_FILE_NAME)
    const db = openDatabase({ file })
    const opened = storeOfDatabase(db)
    return {
      ...opened,
      where: file,
      receiverStore: { db },
      capture: (receiver) => receiver.requests,
      // Other connections' commits only: listen's own captures change no definition.
      changes: () => Promise.resolve(sqliteChangeFeed(db, 200, { othersOnly: true })),
      requests: () => createCountReadsOn(opened.engine).capturedRequests(),
      close: async () => {
        db.close()
      },
    }
  }
  const opened = await openStore(parseStoreLocation(target.url))
  return {
    ...opened,
    where: target.where,
    receiverStore: { store: opened.engine, secrets: opened.secrets },
    // Captures are awaited commits there: none can be flushed synchronously (engine.ts does the same).
    capture: (receiver) => ({ flush: () => undefined, forgetDeleted: receiver.requests.forgetDeleted }),
    changes: () => postgresChangeFeed(target.url),
    requests: () => createCountReadsOn(opened.engine).capturedRequests(),
    close: () => opened.engine.close(),
  }
}
