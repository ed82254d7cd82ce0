// Builds hookloop/testing (electron/testing/) into out/testing/: one bundle as ESM (index.mjs, for
// vitest and node:test) and one as CommonJS (index.cjs, for Jest's default module system), and the
// type declarations (out/testing/types/). Packages stay external: better-sqlite3 is the same
// native module the CLI loads.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { build } from 'vite'

const outDir = resolve('out/testing')
rmSync(outDir, { recursive: true, force: true })
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: true, outDir, emptyOutDir: false, target: 'node20', minify: false,
    rollupOptions: {
      input: { index: resolve('electron/testing/index.ts'), 'schema-judge-thread': resolve('electron/engine/payload-schemas/judge-thread-entry.ts') },
      output: [
        { format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
        { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
      ],
    },
  },
})
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.testing.json'], { stdio: 'inherit' })

// The sources import without extensions (moduleResolution "bundler"); so do the emitted
// declarations. A consumer on "node16"/"nodenext" resolves ESM declarations only with the
// extension written, and would silently get \`any\`: name each relative module's file.
function declarationFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? declarationFiles(join(dir, entry.name)) : entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : []))
}
for (const file of declarationFiles(join(outDir, 'types'))) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g, (whole, lead, quote, spec) => {
    if (/\.(js|json)$/.test(spec)) return whole
    const base = resolve(dirname(file), spec)
    if (existsSync(`${base}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`
    if (existsSync(join(base, 'index.d.ts'))) return `${lead}${quote}${spec}/index.js${quote}`
    throw new Error(`${file}: cannot find the declarations of ${spec}`)
  })
  if (fixed !== text) writeFileSync(file, fixed)
}
