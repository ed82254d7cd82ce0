// One side of bench:costs --side=sender in a process of its own, run under `node --cpu-prof`:
// `bare` (the undici loop) or `hookloop` (the sender, attempt writes on its writer thread), against
// the failing receiver whose port it is given. A warm-up run first, then the measured one; prints
// the measured window (process.hrtime in µs, the profile's clock) and the attempts made in it as
// one JSON line, and exits so the profiles are written.
import { ATTEMPTS, bare, hookloop } from './sender-rig'

const [target, port] = process.argv.slice(2)
const url = `http://127.0.0.1:${port}/hook`
const nowUs = () => Number(process.hrtime.bigint() / 1000n)
/** The receiver's counts start again (costs.ts holds the receiver, unprofiled, and answers). */
const reset = () =>
  new Promise<void>((done) => {
    process.once('message', () => done())
    process.send?.('reset')
  })

let from = 0
let to = 0
let attempts = ATTEMPTS
for (let round = 0; round < 2; round++) {
  await reset()
  if (target === 'bare') {
    from = nowUs()
    await bare(url)
    to = nowUs()
  } else {
    const run = await hookloop(url, true, { begin: async () => void (from = nowUs()), end: async () => void (to = nowUs()) })
    attempts = run.attempts
  }
}
process.stdout.write(`${JSON.stringify({ from, to, attempts })}\n`)
process.exit(0)
