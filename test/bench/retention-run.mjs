// npm run bench:retention — see bundle-and-run.mjs.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('retention', ['retention-server-process', 'receiver-load-process'])
