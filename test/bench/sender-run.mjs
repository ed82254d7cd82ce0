// npm run bench:sender — bundles the TypeScript benchmark with Vite into out/bench/sender/, then
// runs it with plain Node (dependencies stay external). The receiver it starts is plain JS.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { build } from 'vite'

const outDir = resolve('out/bench/sender')
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
      input: { sender: resolve('test/bench/sender.ts') },
      output: { format: 'esm', entryFileNames: '[name].mjs' },
    },
  },
})
const child = spawn(process.execPath, ['--expose-gc', resolve(outDir, 'sender.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
