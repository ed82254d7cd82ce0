// npm run bench:tokens — see bundle-and-run.mjs and tokens.ts.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('tokens', [])
