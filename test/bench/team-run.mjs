// npm run bench:team — builds the app first (the capture rates, the live lag and the memory drive
// `hookloop serve` and `hookloop listen` from out/), then see bundle-and-run.mjs and team.ts.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { bundleAndRun } from './bundle-and-run.mjs'

const app = spawnSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { stdio: ['ignore', 'ignore', 'inherit'] })
if (app.status !== 0) process.exit(app.status ?? 1)
await bundleAndRun('team', ['team-drain-process', 'receiver-load-process', 'receiver-server-process'])
