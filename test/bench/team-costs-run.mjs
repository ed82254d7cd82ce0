// npm run bench:team-costs — builds the app first (the runs drive `hookloop serve` from out/), then
// see bundle-and-run.mjs and team-costs.ts.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { bundleAndRun } from './bundle-and-run.mjs'

const app = spawnSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { stdio: ['ignore', 'ignore', 'inherit'] })
if (app.status !== 0) process.exit(app.status ?? 1)
await bundleAndRun('team-costs', ['receiver-load-process'])
