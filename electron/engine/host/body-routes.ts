// Whole bodies over HTTP on the control server (shared/contract/bodies.ts): a captured request's
// stored body downloaded, and a new body uploaded for a resend. The WebSocket carries only a
// body's start; these routes carry tens of MB, streamed, with the per-run token in a header.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { BODIES_PATH, BODY_START_BYTES, BODY_UPLOAD_LIMIT, BODY_UPLOAD_PATH, requestBodyFileName, TOKEN_HEADER, type Role, type UploadedBody } from '../../../shared/contract'
import { tokenMatches } from './guard'

/** A body's start, as base64, for a command's answer: the whole body goes over these routes. */
export function bodyStart(bytes: Uint8Array | null): string {
  if (!bytes) return ''
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, BODY_START_BYTES)).toString('base64')
}

/** How long an uploaded body waits for the resend that uses it, and how many may wait at once. */
const UPLOAD_KEPT_MS = 10 * 60_000
const UPLOADS_KEPT = 4

/** Uploaded bodies waiting for their resend: each is taken once; the oldest go first past the bound. */
export interface StagedBodies {
  stage(bytes: Buffer): UploadedBody
  /** The body, removed; undefined when unknown, used already or expired. */
  take(upload: string): Buffer | undefined
}

export function createStagedBodies(now: () => number = Date.now): StagedBodies {
  const waiting = new Map<string, { bytes: Buffer; at: number }>()
  const expire = () => {
    for (const [id, entry] of waiting) if (now() - entry.at > UPLOAD_KEPT_MS) waiting.delete(id)
  }
  return {
    stage(bytes) {
      expire()
      const upload = randomBytes(12).toString('base64url')
      waiting.set(upload, { bytes, at: now() })
      // Map order is insertion order: the first key is the oldest.
      while (waiting.size > UPLOADS_KEPT) waiting.delete(waiting.keys().next().value as string)
      return { upload, size: bytes.length }
    },
    take(upload) {
      expire()
      const entry = waiting.get(upload)
      waiting.delete(upload)
      return entry?.bytes
    },
  }
}

/** The routes answered here, as `METHOD path` (route-decisions.ts gives each its authorisation). */
export const BODY_ROUTES = ['GET /bodies/requests/:id', 'POST /bodies/uploads'] as const

/** Why a request is not admitted: 401 (nobody known), 403 (a role below the one needed, named). */
export interface BodyRefusal {
  status: 401 | 403
  message: string
}

export interface BodyRoutesOptions {
  token: string
  /**
   * With accounts: a signed-in session (its cookie) or an API token (`Authorization: Bearer`)
   * admits, not the run's token; a download needs a viewer, an upload (for a resend) an editor.
   * Null when admitted.
   */
  admit?: (req: IncomingMessage, needed: Role, what: string) => Promise<BodyRefusal | null>
  /**
   * With accounts: whether the request that asks may see this captured request (its workspace's);
   * one it may not is answered as one that does not exist.
   */
  sees?: (req: IncomingMessage, requestId: number) => Promise<boolean>
  /** A captured request's stored body; undefined when there is no such request. */
  requestBody(id: number): Promise<Buffer | undefined>
  staged: StagedBodies
}

/** Answers a request under BODIES_PATH; false for any other path (the caller serves it). */
export function createBodyRoutes(options: BodyRoutesOptions) {
  return function serveBody(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): boolean {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost')
    if (pathname !== BODIES_PATH && !pathname.startsWith(`${BODIES_PATH}/`)) return false
    const refuse = (status: number, message: string) => {
      res
        .writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', connection: 'close', ...(status === 401 && options.admit ? { 'www-authenticate': 'Bearer' } : {}) })
        .end(`${message}\n`)
      // An upload refused before its end is not read further.
      if (!req.readableEnded) req.resume()
    }
    const download = /^\/bodies\/requests\/(\d{1,15})$/.exec(pathname)
    const uploading = pathname === BODY_UPLOAD_PATH
    const admitted: Promise<BodyRefusal | null> = options.admit
      ? options.admit(req, uploading ? 'editor' : 'viewer', uploading ? 'uploading a body' : 'reading a body')
      : Promise.resolve(
          tokenMatches(options.token, headerValue(req.headers[TOKEN_HEADER])) ? null : { status: 401, message: `wrong or missing ${TOKEN_HEADER}: bodies are served to the UI that holds this run's token` },
        )
    admitted.then(
      (refusal) => {
        if (refusal) {
          refuse(refusal.status, refusal.message)
        } else if (download) {
          void serveDownload(Number(download[1]))
        } else if (uploading) {
          if (req.method === 'POST') receiveUpload(req, res, headers, refuse)
          else refuse(405, 'a body is uploaded with POST')
        } else {
          refuse(404, `unknown body route ${pathname}`)
        }
      },
      () => refuse(503, 'the accounts could not be read'),
    )
    return true

    async function serveDownload(id: number): Promise<void> {
      if (req.method !== 'GET') return refuse(405, 'a request body is read with GET')
      let body: Buffer | undefined
      try {
        body = !options.sees || (await options.sees(req, id)) ? await options.requestBody(id) : undefined
      } catch (error) {
        return refuse(500, `request #${id} could not be read: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (!body) return refuse(404, `request #${id} does not exist`)
      res.writeHead(200, {
        ...headers,
        'content-type': 'application/octet-stream',
        'content-length': String(body.length),
        'content-disposition': `attachment; filename="${requestBodyFileName(id)}"`,
      })
      res.end(body)
    }
  }

  function receiveUpload(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, refuse: (status: number, message: string) => void): void {
    const tooBig = `a body may be at most ${BODY_UPLOAD_LIMIT} bytes (what an endpoint may receive)`
    const declared = Number(req.headers['content-length'] ?? NaN)
    if (declared > BODY_UPLOAD_LIMIT) return refuse(413, tooBig)
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    req.on('data', (chunk: Buffer) => {
      if (refused) return
      size += chunk.length
      if (size > BODY_UPLOAD_LIMIT) {
        refused = true
        chunks.length = 0
        refuse(413, tooBig)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (refused) return
      const staged = options.staged.stage(Buffer.concat(chunks, size))
      res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(staged))
    })
    req.on('error', () => {
      refused = true
    })
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
