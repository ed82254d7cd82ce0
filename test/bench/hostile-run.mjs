// npm run bench:hostile [-- --before <git ref>] — see bundle-and-run.mjs. With --before, the same
// attack also runs against the receiver of that ref (e.g. main), alternating with this tree's in
// one run: the ref's tree is exported to a temp folder, this tree's hostile-server-process.ts is
// put in it (so both servers answer the same questions), and it is bundled beside this one.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundle, bundleAndRun } from './bundle-and-run.mjs'

const at = process.argv.indexOf('--before')
if (at >= 0) {
  const ref = process.argv[at + 1]
  if (!ref) throw new Error('--before needs a git ref (a branch, tag or commit)')
  const tree = mkdtempSync(join(tmpdir(), 'hookloop-hostile-before-'))
  execFileSync('sh', ['-c', `git archive --format=tar "$1" | tar -x -C "$2"`, 'sh', ref, tree], { stdio: 'inherit' })
  symlinkSync(resolve('node_modules'), join(tree, 'node_modules'))
  copyFileSync(resolve('test/bench/hostile-server-process.ts'), join(tree, 'test/bench/hostile-server-process.ts'))
  const outDir = resolve('out/bench/hostile-before')
  await bundle(outDir, { 'hostile-server-process': join(tree, 'test/bench/hostile-server-process.ts') })
  // The bundle needs nothing from the tree at run time (dependencies resolve from this project).
  rmSync(tree, { recursive: true, force: true })
  process.env.BENCH_BEFORE_SERVER = join(outDir, 'hostile-server-process.mjs')
  process.env.BENCH_BEFORE_REF = ref
}
await bundleAndRun('hostile', ['hostile-server-process'])
