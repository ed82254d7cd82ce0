// `hookloop mcp` started on a data folder as a `hookloop listen` on it stops, as a person does who
// stops listen and opens their editor's agent: listen's close (its last commits, the checkpoint
// that removes -wal and -shm) meets mcp's open of the same file. Every start must complete the MCP
// handshake (the official SDK's client over stdio) and answer a tool with every request captured
// so far. Both ways listen is stopped (Ctrl-C, a supervisor's SIGTERM), many times.
import { join } from 'node:path'
import { setTimeout as after } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { startListen } from '../../support/listen-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { startMcp } from '../mcp/support'

const ROUNDS = 12
/**
 * mcp takes a few hundred ms to start (Node, the bundle) before it opens the store, and listen tens
 * of ms to close it: each round signals listen a little later after mcp was spawned, so some
 * rounds' open falls inside listen's close. It spreads the rounds; nothing is judged on time.
 */
const SPREAD_MS = 50

interface Row {
  requestIds?: number[]
}

describe('hookloop mcp right after hookloop listen stopped on the same folder', () => {
  const temp = useTempDir('hookloop-mcp-after-listen-')

  it.each(['SIGINT', 'SIGTERM'] as const)('%s: every mcp start completes the handshake and lists every captured request', async (signal) => {
    const data = join(temp.dir, signal)
    for (let round = 1; round <= ROUNDS; round++) {
      const listen = await startListen(['--data', data])
      const captured = await fetch(`http://127.0.0.1:${listen.port}/h/default`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event_id: `evt_${round}` }) })
      expect(captured.status).toBe(200)
      await captured.arrayBuffer()
      // Round 1 as the person did it: listen has exited, then mcp starts. Later rounds: mcp starts,
      // then listen is told to stop while mcp loads.
      if (round === 1) {
        listen.kill(signal)
        expect(await listen.exited, `round ${round}: listen's exit status`).toBe(0)
      }
      const starting = startMcp(['--data', data]).then(
        (session) => ({ session }),
        (error: unknown) => ({ error: `round ${round}: mcp closed before the handshake: ${error instanceof Error ? error.message : String(error)}` }),
      )
      if (round > 1) {
        await after((round - 2) * SPREAD_MS)
        listen.kill(signal)
        expect(await listen.exited, `round ${round}: listen's exit status`).toBe(0)
      }
      const started = await starting
      if ('error' in started) throw new Error(started.error)
      const { session } = started
      try {
        const listed = await session.json<{ rows: Row[] }>('list_rows', { limit: 100 })
        const ids = listed.rows.flatMap((row) => row.requestIds ?? [])
        expect(ids, `round ${round}: the requests mcp lists (its log: ${session.stderr})`).toHaveLength(round)
      } finally {
        await session.close()
      }
    }
  })
})
