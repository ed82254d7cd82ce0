// npm run bench:tunnel — see bundle-and-run.mjs.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('tunnel', ['tunnel-server-process', 'tunnel-real-server-process', 'tunnel-app-process', 'tunnel-load-process'])
