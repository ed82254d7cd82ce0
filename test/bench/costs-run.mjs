// npm run bench:costs — see costs.ts.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('costs', ['receiver-server-process', 'receiver-load-process'])
