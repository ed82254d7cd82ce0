// Where a server's CPU goes, stage by stage: V8 CPU profiles (node --cpu-prof, one file per
// thread) read back, each sample's time given to the stage of the innermost Hookloop frame on its
// stack (the bundle's frames mapped to their source file and function through its source map), or,
// with no Hookloop frame on the stack, to what Node itself was doing (parsing HTTP, socket I/O,
// timers, the garbage collector). Only the samples inside the measured window count: the profile
// and process.hrtime() share the monotonic clock, so the benchmark says when its load began and
// ended and warm-up and start-up stay out.
import { readdirSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
  columnNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  parent?: number
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** A stage and how a frame is told to be in it: its source file (relative to the repository) and, optionally, its function. */
export interface StageRule {
  stage: string
  file: RegExp
  fn?: RegExp
  /** A shared layer (the store engine): the time goes to the Hookloop frame that called it, when there is one. */
  passThrough?: boolean
}

/** What Node does with no Hookloop frame on the stack, by the innermost frame that names it. */
const NODE_STAGES: StageRule[] = [
  { stage: 'HTTP parse and dispatch (node:http)', file: /^node:_http_(common|server|incoming)$/ },
  { stage: 'HTTP answer written (node:http)', file: /^node:_http_outgoing$/ },
  { stage: 'socket I/O (node:net, streams)', file: /^node:(net|stream|internal\/stream_base_commons|internal\/streams\/.*)$/ },
  { stage: 'timers and promise jobs', file: /^node:(timers|internal\/timers|internal\/process\/task_queues)$/ },
]

export interface StageCost {
  stage: string
  /** CPU time in the window, µs. */
  us: number
}

export interface ThreadCosts {
  /** The profile's file name: Node names each thread's own. */
  file: string
  /** Which thread: the main one, the capture writer's, the schema judge's, else its number. */
  thread: string
  totalUs: number
  stages: StageCost[]
}

const mapCache = new Map<string, SourceMap | null>()
function sourceMapOf(url: string): SourceMap | null {
  let map = mapCache.get(url)
  if (map === undefined) {
    try {
      const file = fileURLToPath(url)
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0])
    } catch {
      map = null
    }
    mapCache.set(url, map)
  }
  return map
}

/** A frame's source file (relative to the repository: `electron/engine/receiver/dedupe.ts`) and function, or node's module name. */
function sourceOf(frame: CallFrame): { file: string; fn: string } | null {
  if (frame.url.startsWith('node:')) return { file: frame.url, fn: frame.functionName }
  if (!frame.url.startsWith('file:')) return null
  const map = sourceMapOf(frame.url)
  if (!map) return { file: frame.url, fn: frame.functionName }
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; name?: string }
  const source = entry.originalSource ?? frame.url
  const at = source.search(/(electron|shared|test)\//)
  return { file: at >= 0 ? source.slice(at) : source, fn: frame.functionName || entry.name || '' }
}

const isOurs = (file: string) => /^(electron|shared)\//.test(file)

/** Stages shown by file and function too (`--detail=REGEX`): where inside a stage the time goes. */
const detailArg = process.argv.find((a) => a.startsWith('--detail='))?.slice('--detail='.length)
const detail = detailArg ? new RegExp(detailArg) : null

/**
 * The stage of one sample's stack (leaf first): the innermost Hookloop frame's stage by `rules`
 * (unnamed: "other Hookloop code: <file>"); with none, Node's by NODE_STAGES; else the leaf's kind.
 */
function stageOf(stack: readonly CallFrame[], rules: readonly StageRule[]): string | null {
  let through: string | null = null
  for (const frame of stack) {
    const source = sourceOf(frame)
    if (!source || !isOurs(source.file)) continue
    const rule = rules.find((r) => r.file.test(source.file) && (!r.fn || r.fn.test(source.fn)))
    const where = `${source.file.replace(/^electron\/engine\//, '')} ${source.fn || '(anonymous)'}`
    if (rule?.passThrough) {
      through ??= rule.stage
      continue
    }
    if (!rule) return `other Hookloop code: ${where}`
    return detail?.test(rule.stage) ? `${rule.stage}: ${where}` : rule.stage
  }
  if (through) return through
  const leaf = stack[0]?.functionName ?? ''
  if (leaf === '(idle)') return null
  if (leaf === '(garbage collector)') return 'garbage collector'
  for (const frame of stack) {
    const rule = NODE_STAGES.find((r) => r.file.test(frame.url))
    if (rule) return rule.stage
  }
  // Innermost package: `better-sqlite3` on a writer thread is the commit itself.
  for (const frame of stack) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url)?.[1]
    if (name) return `${name} (a dependency)`
  }
  return leaf === '(program)' ? 'V8 and native (program)' : 'other Node internals'
}

/** One profile's CPU in [fromUs, toUs] (process.hrtime in µs), by stage. */
export function threadCosts(file: string, profile: CpuProfile, rules: readonly StageRule[], fromUs: number, toUs: number): ThreadCosts {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const stageByNode = new Map<number, string | null>()
  const stage = (id: number): string | null => {
    if (stageByNode.has(id)) return stageByNode.get(id) ?? null
    const stack: CallFrame[] = []
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.push((byId.get(at) as ProfileNode).callFrame)
    const found = stageOf(stack, rules)
    stageByNode.set(id, found)
    return found
  }
  const totals = new Map<string, number>()
  let now = profile.startTime
  let total = 0
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's delta is the time since the previous one: it is charged to this sample's stack.
    const delta = profile.timeDeltas[i] ?? 0
    now += delta
    if (now < fromUs || now > toUs) continue
    const name = stage(profile.samples[i] as number)
    if (name === null) continue
    totals.set(name, (totals.get(name) ?? 0) + delta)
    total += delta
  }
  const stages = [...totals].map(([name, us]) => ({ stage: name, us })).sort((a, b) => b.us - a.us)
  return { file, thread: threadOf(file, profile), totalUs: total, stages }
}

/** Node names a profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile, thread 0 the main one; a worker is told by its code. */
function threadOf(file: string, profile: CpuProfile): string {
  const id = file.split('.').at(-3) ?? '?'
  if (id === '0') return 'main thread'
  if (profile.nodes.some((n) => n.callFrame.url.includes('[worker eval]'))) return 'writer thread'
  if (profile.nodes.some((n) => n.callFrame.url.includes('schema-judge-thread'))) return 'schema judge thread'
  return `thread ${id}`
}

/** Every profile in `dir` (one per thread the process ran), read for the window. */
export function dirCosts(dir: string, rules: readonly StageRule[], fromUs: number, toUs: number): ThreadCosts[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .map((f) => threadCosts(f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile, rules, fromUs, toUs))
    .filter((t) => t.totalUs > 0)
}
