// npm run bench:sender — see bundle-and-run.mjs. The receiver it starts is plain JS
// (sender-receiver.mjs); --expose-gc lets the scheduler part measure memory after a collection.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('sender', [], ['--expose-gc'])
