// npm run bench:publish [-- --against=REV[,REV…]] [--variant='LABEL=SQL' …] [--profile=DIR] — see publish.ts.
// Each REV is extracted (git archive) into a folder under the temp dir, once, and this tree's
// publish-process.ts is copied into it and bundled there, so every tree runs the same loop over its
// own engine. The trees named by --against come first (the first is the base of the ratios), this
// tree last. Each --variant runs this tree again with SQL executed on every fresh store before its
// loop (`--variant='no status index=DROP INDEX deliveries_by_status'`, a pragma …): an
// experiment, never a figure of a tree as it is. PUBLISH_PASSES, PUBLISH_LOOPS and PUBLISH_EVENTS
// change the counts.
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundle } from './bundle-and-run.mjs'

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim()

/** The tree of `rev`, extracted once under the temp dir, with this tree's node_modules. */
function treeOf(rev) {
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`)
  const dir = join(tmpdir(), 'hookloop-bench-publish-trees', sha)
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { stdio: 'inherit' })
  }
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'))
  return { label: `${rev} (${sha.slice(0, 7)})`, root: dir }
}

const against = (process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length) ?? '').split(',').filter(Boolean)
const dirty = git('status', '--porcelain').length > 0
const here = `this tree (${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''})`
const trees = [...against.map(treeOf), { label: here, root: resolve('.') }]
const variants = process.argv
  .filter((a) => a.startsWith('--variant='))
  .map((a) => a.slice('--variant='.length))
  .map((v) => {
    if (!v.includes('=')) throw new Error(`--variant='LABEL=SQL' expected, got ${JSON.stringify(v)}`)
    return v
  })
  .map((v) => ({ label: `${here}, ${v.slice(0, v.indexOf('='))}`, sql: v.slice(v.indexOf('=') + 1) }))

const outDir = resolve('out/bench/publish')
const entries = []
for (const [i, tree] of trees.entries()) {
  const source = join(tree.root, 'test/bench/publish-process.ts')
  if (tree.root !== resolve('.')) copyFileSync(resolve('test/bench/publish-process.ts'), source)
  await bundle(join(outDir, `tree-${i}`), { 'publish-process': source })
  entries.push({ label: tree.label, entry: join(outDir, `tree-${i}`, 'publish-process.mjs') })
}
const thisTree = entries[entries.length - 1].entry
for (const variant of variants) entries.push({ label: variant.label, entry: thisTree, sql: variant.sql })
await bundle(join(outDir, 'main'), { publish: resolve('test/bench/publish.ts') })
const child = spawn(process.execPath, [join(outDir, 'main', 'publish.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, PUBLISH_TREES: JSON.stringify(entries) },
})
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
