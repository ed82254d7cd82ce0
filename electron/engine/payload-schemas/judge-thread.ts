// The schema judge on a thread of its own (judge-thread-entry.ts, built as schema-judge-thread.js
// beside the bundle that starts it): the same SchemaJudge, its compiling and checking beside the
// caller's event loop, which only posts the request's headers and body and reads the verdict back.
// A thread that fails or stops answers what it held as "no schema", and why; the next request
// starts a fresh one. A schema given for a request (a contract's operation) is posted to a thread
// once, with the first request it judges; later requests name it by its key.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ProviderId } from '../../../shared/providers'
import type { SchemaVerdict } from '../../../shared/receiver'
import { noSchema, type SchemaJudge } from './judge'
import type { GivenSchema } from './source'

/** One request to judge, as posted to the thread. */
export interface JudgeAsk {
  id: number
  /** Judged by its provider's published schema, or against the schema given (the key of one posted before). */
  by: { provider: ProviderId } | { given: GivenSchema } | { givenKey: string }
  headers: readonly [string, string][]
  body: Uint8Array
  bodyTruncated: boolean
}

/** The thread's verdict on the request of that id. */
export interface JudgeAnswer {
  id: number
  verdict: SchemaVerdict
}

export interface ThreadJudge extends SchemaJudge {
  /** Ends the thread; verdicts still awaited are "no schema". */
  close(): void
}

const THREAD_FILES = ['schema-judge-thread.js', 'schema-judge-thread.mjs', 'schema-judge-thread.cjs']

/**
 * The thread's script, built beside the bundle this module is part of (out/main/, out/testing/,
 * a benchmark's folder; this module may sit in a chunk folder below it); null when there is none:
 * the sources run unbundled (vitest), where the judge runs on the event loop instead.
 */
export function judgeThreadScript(): string | null {
  const here = dirname(fileURLToPath(import.meta.url))
  for (const dir of [here, dirname(here)]) {
    const file = THREAD_FILES.map((name) => join(dir, name)).find((path) => existsSync(path))
    if (file) return file
  }
  return null
}

export function createThreadJudge(script: string): ThreadJudge {
  let worker: Worker | null = null
  let nextId = 1
  let closed = false
  /** The given schemas' keys the running thread holds. */
  let posted = new Set<string>()
  const waiting = new Map<number, (verdict: SchemaVerdict) => void>()

  /** Every verdict still awaited from this thread is "no schema", with what stopped it. */
  const fail = (from: Worker, reason: string) => {
    if (worker !== from) return
    worker = null
    posted = new Set()
    const told = [...waiting.values()]
    waiting.clear()
    for (const tell of told) tell(noSchema(reason))
    void from.terminate()
  }

  function thread(): Worker {
    if (worker) return worker
    const started = new Worker(script)
    started.on('message', ({ id, verdict }: JudgeAnswer) => {
      const tell = waiting.get(id)
      if (!tell) return
      waiting.delete(id)
      tell(verdict)
      // Idle, the thread does not hold a finished process open.
      if (waiting.size === 0) started.unref()
    })
    started.on('error', (error) => fail(started, `the schema judge failed: ${error.message}`))
    started.on('exit', (code) => fail(started, `the schema judge stopped (exit code ${code})`))
    started.on('messageerror', (error) => fail(started, `the schema judge could not read a message: ${error.message}`))
    worker = started
    return started
  }

  function ask(by: (to: Worker) => JudgeAsk['by'], headers: readonly [string, string][], body: Buffer, bodyTruncated: boolean): Promise<SchemaVerdict> {
      if (closed) return Promise.resolve(noSchema('the receiver closed before it was judged'))
      const id = nextId++
      // The body's own bytes, moved (a Buffer would be cloned with all of the memory it views).
      const bytes = new Uint8Array(body)
      return new Promise<SchemaVerdict>((resolve) => {
        const to = thread()
        const ask: JudgeAsk = { id, by: by(to), headers, body: bytes, bodyTruncated }
        waiting.set(id, resolve)
        to.ref()
        try {
          to.postMessage(ask, [bytes.buffer])
        } catch (error) {
          waiting.delete(id)
          resolve(noSchema(`the body could not be sent to the schema judge: ${(error as Error).message}`))
        }
      })
  }

  return {
    judge: (provider, headers, body, bodyTruncated) => ask(() => ({ provider }), headers, body, bodyTruncated),
    judgeGiven: (given, headers, body, bodyTruncated) =>
      ask(
        () => {
          if (posted.has(given.key)) return { givenKey: given.key }
          posted.add(given.key)
          return { given }
        },
        headers,
        body,
        bodyTruncated,
      ),
    close() {
      closed = true
      const running = worker
      if (running) fail(running, 'the receiver closed before it was judged')
    },
  }
}
