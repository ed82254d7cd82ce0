// Builds hookloop/testing (electron/testing/) into out/testing/: one bundle as ESM (index.mjs, for
// vitest and node:test) and one as CommonJS (index.cjs, for Jest's default module system), and the
// type declarations (out/testing/types/). Packages stay external: better-sqlite3 is the same
// native module the CLI loads.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { build } from 'vite'

const outDir = resolve('out/testing')
rmSync(outDir, { recursive: true, force: true })
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir,
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    rollupOptions: {
      input: { index: resolve('electron/testing/index.ts') },
      output: [
        { format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
        { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
      ],
    },
  },
})
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.testing.json'], { stdio: 'inherit' })
