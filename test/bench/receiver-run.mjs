// npm run bench:receiver — see bundle-and-run.mjs.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('receiver', ['receiver-server-process', 'receiver-load-process'])
