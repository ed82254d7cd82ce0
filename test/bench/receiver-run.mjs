// npm run bench:receiver — bundles the TypeScript benchmark (and the processes it starts) with
// Vite into out/bench/receiver/, then runs it with plain Node. Dependencies stay external.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { build } from 'vite'

const outDir = resolve('out/bench/receiver')
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
        receiver: resolve('test/bench/receiver.ts'),
        'receiver-server-process': resolve('test/bench/receiver-server-process.ts'),
        'receiver-load-process': resolve('test/bench/receiver-load-process.ts'),
      },
      output: { format: 'esm', entryFileNames: '[name].mjs' },
    },
  },
})
const child = spawn(process.execPath, [resolve(outDir, 'receiver.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
