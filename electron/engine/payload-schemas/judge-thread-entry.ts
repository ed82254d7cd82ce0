// The schema judge's thread (out/main/schema-judge-thread.js, built beside the bundle that starts
// it): compiles providers' schemas and holds bodies against them beside the receiver's event loop,
// so a compile (GitHub's webhooks document: about 1.5 s) never stalls an answer. One message in per
// request, one verdict out with its id; the judge keeps its compiled checkers, and the schemas given
// for requests (a contract's operations, posted once each), for the thread's life.
import { parentPort } from 'node:worker_threads'
import type { SchemaVerdict } from '../../../shared/receiver'
import { createSchemaJudge, noSchema } from './judge'
import type { JudgeAnswer, JudgeAsk } from './judge-thread'
import type { GivenSchema } from './source'

const port = parentPort
if (!port) throw new Error('the schema judge runs in a worker thread')
const judge = createSchemaJudge()
const given = new Map<string, GivenSchema>()

function judged(ask: JudgeAsk, body: Buffer): Promise<SchemaVerdict> {
  const { by } = ask
  if ('provider' in by) return judge.judge(by.provider, ask.headers, body, ask.bodyTruncated)
  if ('given' in by) given.set(by.given.key, by.given)
  const schema = 'given' in by ? by.given : given.get(by.givenKey)
  if (!schema) return Promise.resolve(noSchema('the schema judge lost the schema it was given'))
  return judge.judgeGiven(schema, ask.headers, body, ask.bodyTruncated)
}

port.on('message', (ask: JudgeAsk) => {
  const body = Buffer.from(ask.body.buffer, ask.body.byteOffset, ask.body.byteLength)
  judged(ask, body)
    // A checker that throws on a body says so as the verdict; judging goes on.
    .catch((error: unknown) => noSchema(`the body could not be checked: ${(error as Error).message}`))
    .then((verdict) => port.postMessage({ id: ask.id, verdict } satisfies JudgeAnswer))
})
