// npm run bench:tunnel — see bundle-and-run.mjs. `npm run bench:tunnel -- focus` runs the smaller
// interleaved comparison of tunnel-focus.ts instead.
import { bundleAndRun } from './bundle-and-run.mjs'

const focus = process.argv[2] === 'focus'
await bundleAndRun(focus ? 'tunnel-focus' : 'tunnel', ['tunnel-server-process', 'tunnel-real-server-process', 'tunnel-app-process', 'tunnel-load-process'])
