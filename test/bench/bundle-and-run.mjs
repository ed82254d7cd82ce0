// Shared by the `npm run bench:*` scripts: bundles a TypeScript benchmark (and the processes it
// starts) with Vite into out/bench/<name>/, then runs its main entry with plain Node, passing on
// the command-line arguments. Dependencies stay external.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { build } from 'vite'

/**
 * Bundles entries for plain Node, dependencies external.
 * @param {string} outDir  where the bundles go (emptied first)
 * @param {Record<string, string>} input  entry name → source file
 */
export async function bundle(outDir, input) {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      // bench:costs maps profiled frames back to their source files.
      sourcemap: true,
      // The receiver's schema judge thread rides along: the receiver finds it beside its bundle.
      rollupOptions: { input: { ...input, 'schema-judge-thread': resolve('electron/engine/payload-schemas/judge-thread-entry.ts') }, output: { format: 'esm', entryFileNames: '[name].mjs' } },
    },
  })
}

/**
 * @param {string} name  the benchmark: out/bench/<name>/<name>.mjs is the entry that runs
 * @param {string[]} processes  other entries it spawns, as test/bench/<process>.ts
 * @param {string[]} [nodeFlags]  flags for the Node process that runs the entry
 */
export async function bundleAndRun(name, processes, nodeFlags = []) {
  const outDir = resolve('out/bench', name)
  await bundle(outDir, Object.fromEntries([name, ...processes].map((entry) => [entry, resolve('test/bench', `${entry}.ts`)])))
  const child = spawn(process.execPath, [...nodeFlags, resolve(outDir, `${name}.mjs`), ...process.argv.slice(2)], { stdio: 'inherit' })
  child.on('exit', (code) => {
    process.exitCode = code ?? 1
  })
}
