// Where one HTTP/1.1 message ends on a tunnel socket, without touching its bytes. The tunnel
// relays bytes as they are (the receiver sees exactly what the tunnel server sent, faults and all)
// but must know when a request has been answered: to keep a receiver connection for the next
// request (a burst then costs no new local connection per request), and to close a socket only
// after the request it carries got its answer (make before break). Node's own llhttp parser, as
// node:http uses it, finds the boundaries. Anything it cannot follow (a malformed answer the
// receiver sends on purpose, an upgrade) turns the pair into a plain relay until it closes.

interface LlhttpParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void
  execute(chunk: Buffer): number | Error
  finish(): number | Error | undefined
  close(): void
  [slot: number]: unknown
}

interface HttpCommon {
  HTTPParser: (new () => LlhttpParser) & { REQUEST: number; RESPONSE: number; kOnMessageBegin: number; kOnHeadersComplete: number; kOnMessageComplete: number }
  methods: string[]
}

function loadHttpCommon(): HttpCommon | undefined {
  try {
    // '_http_common' is the module node:http itself parses with (in Node's builtinModules list).
    const common = process.getBuiltinModule?.('_http_common') as Partial<HttpCommon> | undefined
    if (common?.HTTPParser && Array.isArray(common.methods)) return common as HttpCommon
  } catch {
    // not available: every socket pair is a plain relay (no receiver connection reuse)
  }
  return undefined
}

const common = loadHttpCommon()

/** Large enough for any head the receiver accepts (64 KiB); past it the pair is a plain relay. */
const MAX_HEAD_BYTES = 1024 * 1024

export interface MessageHead {
  method: string | undefined
  status: number | undefined
  upgrade: boolean
  keepAlive: boolean
}

export interface FramerHooks {
  onBegin(): void
  /** Return true to parse the message as having no body (the answer to a HEAD request). */
  onHead(head: MessageHead): boolean
  onComplete(): void
}

export interface Framer {
  /** False when the bytes could not be followed; the framer stops and reports nothing more. */
  parse(chunk: Buffer): boolean
  /** The peer closed: a body delimited by the close completes. */
  end(): void
  close(): void
}

/** Whether message boundaries can be tracked at all on this Node. */
export const framingAvailable = common !== undefined

export function createFramer(kind: 'request' | 'response', hooks: FramerHooks): Framer | undefined {
  if (!common) return undefined
  const { HTTPParser, methods } = common
  const parser = new HTTPParser()
  parser.initialize(kind === 'request' ? HTTPParser.REQUEST : HTTPParser.RESPONSE, {}, MAX_HEAD_BYTES, 0)
  let failed = false
  parser[HTTPParser.kOnMessageBegin] = () => hooks.onBegin()
  parser[HTTPParser.kOnHeadersComplete] = (_major: number, _minor: number, _headers: unknown, method: unknown, _url: unknown, status: unknown, _message: unknown, upgrade: unknown, keepAlive: unknown) =>
    hooks.onHead({
      method: typeof method === 'number' ? methods[method] : undefined,
      status: typeof status === 'number' && status > 0 ? status : undefined,
      upgrade: upgrade === true,
      keepAlive: keepAlive === true,
    })
      ? 1
      : 0
  parser[HTTPParser.kOnMessageComplete] = () => hooks.onComplete()
  return {
    parse(chunk) {
      if (failed) return false
      const result = parser.execute(chunk)
      if (result instanceof Error) failed = true
      return !failed
    },
    end() {
      if (failed) return
      const result = parser.finish()
      if (result instanceof Error) failed = true
    },
    close() {
      failed = true
      parser.close()
    },
  }
}
