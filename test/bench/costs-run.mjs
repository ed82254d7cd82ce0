// npm run bench:costs [-- --side=sender] [--against=REV[,REV…]] — see costs.ts. Each REV is
// extracted (git archive) into a folder under the temp dir, once; this tree's server and sender
// processes (SERVER_FILES) are copied into it and bundled there, so every tree's receiver or
// sender is profiled under the same load, in the same sitting (a cut's before and after, side by side).
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundle } from './bundle-and-run.mjs'

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim()
const SERVER_FILES = ['receiver-server-process.ts', 'bench-server.ts', 'sender-rig.ts', 'sender-costs-process.ts']

/** The tree of `rev`, extracted once under the temp dir, with this tree's node_modules. */
function treeOf(rev) {
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`)
  const dir = join(tmpdir(), 'hookloop-bench-trees', sha)
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { stdio: 'inherit' })
  }
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'))
  return { label: `${rev} (${sha.slice(0, 7)})`, root: dir }
}

const against = (process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length) ?? '').split(',').filter(Boolean)
const dirty = git('status', '--porcelain').length > 0
const trees = [...against.map(treeOf), { label: `this tree (${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''})`, root: resolve('.') }]

const outDir = resolve('out/bench/costs')
const entries = []
for (const [i, tree] of trees.entries()) {
  if (tree.root !== resolve('.')) for (const file of SERVER_FILES) copyFileSync(resolve('test/bench', file), join(tree.root, 'test/bench', file))
  await bundle(join(outDir, `tree-${i}`), { 'receiver-server-process': join(tree.root, 'test/bench/receiver-server-process.ts'), 'sender-costs-process': join(tree.root, 'test/bench/sender-costs-process.ts') })
  entries.push({ label: tree.label, server: join(outDir, `tree-${i}`, 'receiver-server-process.mjs'), sender: join(outDir, `tree-${i}`, 'sender-costs-process.mjs') })
}
await bundle(join(outDir, 'main'), { costs: resolve('test/bench/costs.ts'), 'receiver-server-process': resolve('test/bench/receiver-server-process.ts'), 'receiver-load-process': resolve('test/bench/receiver-load-process.ts'), 'sender-costs-process': resolve('test/bench/sender-costs-process.ts') })
const child = spawn(process.execPath, [join(outDir, 'main', 'costs.mjs'), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, COSTS_TREES: JSON.stringify(entries) } })
child.on('exit', (code) => {
  process.exitCode = code ?? 1
})
