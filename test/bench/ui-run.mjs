// npm run bench:ui — builds the app (the benchmark drives `hookloop serve` from out/), bundles the
// TypeScript benchmark and its flood process with Vite into out/bench/ui/, then runs it with Node.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { build } from 'vite'

const app = spawnSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { stdio: ['ignore', 'ignore', 'inherit'] })
if (app.status !== 0) process.exit(app.status ?? 1)
const outDir = resolve('out/bench/ui')
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      input: { ui: resolve('test/bench/ui.ts'), 'ui-flood-process': resolve('test/bench/ui-flood-process.ts') },
      output: { format: 'esm', entryFileNames: '[name].mjs' },
    },
  },
})
const child = spawn(process.execPath, [resolve(outDir, 'ui.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
