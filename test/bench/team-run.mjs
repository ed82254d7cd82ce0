// npm run bench:team — see bundle-and-run.mjs and team.ts.
import { bundleAndRun } from './bundle-and-run.mjs'

await bundleAndRun('team', ['team-drain-process'])
