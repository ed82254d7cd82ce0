// npm run bench:publish — the sender's publish path alone (the event and its delivery stored, one
// transaction per publish, as publish() commits), side by side: this tree and, with
// `--against=REV[,REV…]`, the trees of other commits (publish-run.mjs bundles the same loop,
// publish-process.ts, inside each). The machine is shared and noisy: the trees take turns, pass
// after pass, each pass a fresh process per tree, and the medians of all their loops are compared.
// `--profile=DIR`: each process also writes a CPU profile (node --cpu-prof) into DIR/<tree>/.
// Nothing here is asserted: figures are printed, then one JSON line.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'

interface Tree {
  label: string
  entry: string
  /** A variant's SQL, run on each fresh store before its loop (publish-run.mjs --variant). */
  sql?: string
}

const trees = JSON.parse(process.env.PUBLISH_TREES ?? '[]') as Tree[]
const PASSES = Number(process.env.PUBLISH_PASSES ?? 4)
const profileDir = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

interface Loops {
  rates: number[]
  cpuUs: number[]
}

function runOnce(tree: Tree): Promise<Loops> {
  const flags: string[] = []
  if (profileDir) {
    const dir = join(profileDir, tree.label.replace(/[^\w.-]+/g, '_'))
    mkdirSync(dir, { recursive: true })
    flags.push('--cpu-prof', `--cpu-prof-dir=${dir}`)
  }
  return new Promise((done, fail) => {
    const env = { ...process.env, PUBLISH_SQL: tree.sql ?? '' }
    const child = spawn(process.execPath, [...flags, tree.entry], { stdio: ['ignore', 'pipe', 'inherit'], env })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', fail)
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`${tree.label}: exit ${code}`))
      done(JSON.parse(out.trim().split('\n').pop() as string) as Loops)
    })
  })
}

if (trees.length === 0) throw new Error('no tree to run: start this through `npm run bench:publish`')
const startLoad = loadavg()[0] as number
const started = new Date()
const runs = new Map<string, Loops>(trees.map((t) => [t.label, { rates: [], cpuUs: [] }]))
for (let pass = 0; pass < PASSES; pass++) {
  // Turns rotate, so no tree always runs right after the same one.
  const order = trees.map((_, i) => trees[(i + pass) % trees.length] as Tree)
  for (const tree of order) {
    const run = await runOnce(tree)
    const all = runs.get(tree.label) as Loops
    all.rates.push(...run.rates)
    all.cpuUs.push(...run.cpuUs)
  }
}
const endLoad = loadavg()[0] as number
// Events/s is what a caller sees; CPU µs per event (all threads, user + system) is less moved by
// the other work on a shared machine, which takes the CPU away but does not add to this process's.
const figures = trees.map((t) => {
  const all = runs.get(t.label) as Loops
  return { label: t.label, rate: median(all.rates), cpuUs: median(all.cpuUs), all }
})
const base = figures[0] as (typeof figures)[number]
const width = Math.max(...trees.map((t) => t.label.length))
console.log(
  `Publish benchmark: ${PASSES} passes, trees in turn, ${started.toISOString().slice(11, 16)}–${new Date().toISOString().slice(11, 16)} UTC, load average ${startLoad.toFixed(1)} → ${endLoad.toFixed(1)}, ${cpus().length} CPUs, Node ${process.version}`,
)
console.log(`ratios against ${base.label}; medians of every loop`)
console.log(`${'tree'.padEnd(width)}  events/s  ratio  CPU µs/event  ratio  events/s of each loop`)
for (const f of figures) {
  console.log(
    `${f.label.padEnd(width)}  ${f.rate.toFixed(0).padStart(8)}  ${(f.rate / base.rate).toFixed(2).padStart(5)}  ${f.cpuUs.toFixed(1).padStart(12)}  ${(base.cpuUs / f.cpuUs).toFixed(2).padStart(5)}  ${f.all.rates.map((r) => r.toFixed(0)).join(' ')}`,
  )
}
console.log(
  JSON.stringify({
    bench: 'publish',
    passes: PASSES,
    load: [Number(startLoad.toFixed(1)), Number(endLoad.toFixed(1))],
    trees: Object.fromEntries(
      figures.map((f) => [
        f.label,
        { publish_per_s_median: Math.round(f.rate), cpu_us_per_event_median: Number(f.cpuUs.toFixed(1)), loops: f.all.rates.length, ratio: Number((f.rate / base.rate).toFixed(2)), cpu_ratio: Number((base.cpuUs / f.cpuUs).toFixed(2)) },
      ]),
    ),
  }),
)
