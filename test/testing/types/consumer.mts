// A TypeScript test file's view of hookloop/testing: compiled against the built declarations with
// both module resolutions a consumer may use. Each @ts-expect-error fails the compile when the
// type it probes has decayed to `any` (an unresolved declaration).
import { deliver, startReceiver, type ReceivedRequest } from 'hookloop/testing'

const receiver = await startReceiver({ endpoints: [{ slug: 'github', scheme: 'github', secrets: ['s3cret'], rules: [{ preset: 'fail-first', n: 2 }] }] })
const request: ReceivedRequest = await receiver.nextRequest({ endpoint: 'github', timeoutMs: 1000 })
const verdict: 'valid' | 'invalid' | 'unverified' = request.verdict
// @ts-expect-error a verdict is one of three words
const wrong: 'maybe' = request.verdict
const result = await deliver({ to: receiver.endpointUrl('github'), provider: 'github', events: ['push'] })
const attempt: number = result.deliveries[0]!.attempts[0]!.n
// @ts-expect-error not a provider Hookloop knows
await deliver({ to: 'http://127.0.0.1:1/', provider: 'nope', events: ['push'] })
// @ts-expect-error an endpoint's scheme is one of the signature schemes
await startReceiver({ endpoints: [{ slug: 'x', scheme: 'md5' }] })
console.log(verdict, wrong, attempt)
await receiver.close()
