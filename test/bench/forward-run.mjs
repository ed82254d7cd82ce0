// npm run bench:forward — see bundle-and-run.mjs.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('forward', ['forward-proxy-process', 'forward-latency-process', 'receiver-load-process'])
