// npm run bench:crash — see bundle-and-run.mjs and crash.ts.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('crash', [])
