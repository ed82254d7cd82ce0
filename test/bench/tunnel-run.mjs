// npm run bench:tunnel — bundles the TypeScript benchmark (and the processes it starts) with
// Vite into out/bench/tunnel/, then runs it with plain Node. Dependencies stay external.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { build } from 'vite'

const outDir = resolve('out/bench/tunnel')
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
      input: {
        tunnel: resolve('test/bench/tunnel.ts'),
        'tunnel-server-process': resolve('test/bench/tunnel-server-process.ts'),
        'tunnel-app-process': resolve('test/bench/tunnel-app-process.ts'),
        'tunnel-load-process': resolve('test/bench/tunnel-load-process.ts'),
      },
      output: { format: 'esm', entryFileNames: '[name].mjs' },
    },
  },
})
const child = spawn(process.execPath, [resolve(outDir, 'tunnel.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
