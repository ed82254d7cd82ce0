// The schema judge's thread (out/main/schema-judge-thread.js, built beside the bundle that starts
// it): compiles providers' schemas and holds bodies against them beside the receiver's event loop,
// so a compile (GitHub's webhooks document: about 1.5 s) never stalls an answer. One message in per
// request, one verdict out with its id; the judge keeps its compiled checkers for the thread's life.
import { parentPort } from 'node:worker_threads'
import { createSchemaJudge, noSchema } from './judge'
import type { JudgeAnswer, JudgeAsk } from './judge-thread'

const port = parentPort
if (!port) throw new Error('the schema judge runs in a worker thread')
const judge = createSchemaJudge()
port.on('message', (ask: JudgeAsk) => {
  const body = Buffer.from(ask.body.buffer, ask.body.byteOffset, ask.body.byteLength)
  judge
    .judge(ask.provider, ask.headers, body, ask.bodyTruncated)
    // A checker that throws on a body says so as the verdict; judging goes on.
    .catch((error: unknown) => noSchema(`the body could not be checked: ${(error as Error).message}`))
    .then((verdict) => port.postMessage({ id: ask.id, verdict } satisfies JudgeAnswer))
})
