// What hookloop/testing started and nobody has closed yet. A test that forgets close() leaves a
// port and a temp SQLite folder behind; the process says so when it is about to end, naming each
// one and the line of the test that started it, instead of leaking quietly.

export interface OpenResource {
  /** "receiver at http://127.0.0.1:41234" */
  readonly description: string
  /** The caller's line that started it (the first frame outside hookloop/testing). */
  readonly startedAt: string
  close(): Promise<void>
}

const open = new Set<OpenResource>()
let warnedOnExit = false

/** The file a stack frame names ("at f (file:///x/y.mjs:1:2)" → "file:///x/y.mjs"). */
function frameFile(frame: string): string | null {
  const match = /(?:\(|^at (?:async )?)((?:file:\/\/|\/|[A-Za-z]:\\)[^()]*?):\d+:\d+\)?$/.exec(frame)
  return match ? match[1]! : null
}

function startedAtLine(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1).map((line) => line.trim())
  // The library's own frames are in the folder of this file (the built out/testing/, or its
  // source folder); the first frame elsewhere is the test that started the resource.
  const own = frameFile(frames[0] ?? '')
  const ownDir = own === null ? null : own.slice(0, Math.max(own.lastIndexOf('/'), own.lastIndexOf('\\')) + 1)
  const caller = frames.find((line) => {
    const file = frameFile(line)
    return file !== null && !file.startsWith('node:') && (ownDir === null || !file.startsWith(ownDir))
  })
  return caller?.replace(/^at /, '') ?? 'an unknown place'
}

/** Lines naming every resource still open, one each. */
export function describeOpen(): string[] {
  return [...open].map((r) => `${r.description} (started at ${r.startedAt})`)
}

function warnIfOpen(): void {
  if (open.size === 0 || warnedOnExit) return
  warnedOnExit = true
  const lines = describeOpen()
  process.emitWarning(
    `${lines.length} thing${lines.length === 1 ? '' : 's'} started by hookloop/testing ${lines.length === 1 ? 'was' : 'were'} never closed:\n${lines.map((l) => `  - ${l}`).join('\n')}\nCall close() on each (in afterEach/after), or closeAll().`,
    { code: 'HOOKLOOP_TESTING_OPEN' },
  )
}

let hooked = false
function hookProcessEnd(): void {
  if (hooked) return
  hooked = true
  // beforeExit: the event loop ran dry (our sockets are unref'd, so a forgotten receiver does not
  // keep the process alive). exit: a runner that ends its worker with process.exit().
  process.on('beforeExit', warnIfOpen)
  process.on('exit', () => {
    if (open.size === 0 || warnedOnExit) return
    warnedOnExit = true
    // emitWarning is asynchronous and would be lost on exit: write it now.
    process.stderr.write(`(hookloop/testing) never closed:\n${describeOpen().map((l) => `  - ${l}`).join('\n')}\n`)
  })
}

/** Records `resource` as open until the returned function is called (its close() calls it). */
export function track(resource: Omit<OpenResource, 'startedAt'>): () => void {
  hookProcessEnd()
  const entry: OpenResource = { ...resource, startedAt: startedAtLine() }
  open.add(entry)
  warnedOnExit = false
  return () => {
    open.delete(entry)
  }
}

/** Closes everything hookloop/testing started and has not closed (for an afterAll). */
export async function closeAll(): Promise<void> {
  const errors: unknown[] = []
  for (const resource of [...open]) {
    try {
      await resource.close()
    } catch (error) {
      errors.push(error)
    } finally {
      open.delete(resource)
    }
  }
  if (errors.length) throw new AggregateError(errors, `closeAll: ${errors.length} could not be closed`)
}

/** What is open right now, as lines naming each (empty when everything was closed). */
export function openResources(): string[] {
  return describeOpen()
}
