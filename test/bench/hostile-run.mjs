// npm run bench:hostile — see bundle-and-run.mjs.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('hostile', ['hostile-server-process'])
