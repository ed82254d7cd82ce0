// Bodies too big for a command's answer. A captured body may be tens of MB (the receiver keeps up
// to DEFAULT_BODY_LIMIT); the control WebSocket carries only its start (a frame the browser decodes
// at once, and the engine refuses client frames over CONTROL_FRAME_LIMIT), so the whole body goes
// over plain HTTP on the control server: downloaded at requestBodyPath, uploaded at BODY_UPLOAD_PATH,
// each with the per-run token in TOKEN_HEADER (never in the URL).
import { DEFAULT_BODY_LIMIT } from '../receiver'

/** How much of a body the inspector's command answer carries: its start. */
export const BODY_START_BYTES = 256 * 1024

/** The largest frame a UI may send on the control WebSocket. */
export const CONTROL_FRAME_LIMIT = 2 * 1024 * 1024

/** The header that carries the per-run token on the control server's HTTP routes. */
export const TOKEN_HEADER = 'x-hookloop-token'

export const BODIES_PATH = '/bodies'

/** GET: a captured request's whole stored body, as bytes. */
export function requestBodyPath(requestId: number): string {
  return `${BODIES_PATH}/requests/${requestId}`
}

/** POST: a new body (a file's bytes) for a resend; answers an UploadedBody. */
export const BODY_UPLOAD_PATH = `${BODIES_PATH}/uploads`

/** The largest body a UI may upload: what an endpoint may receive. */
export const BODY_UPLOAD_LIMIT = DEFAULT_BODY_LIMIT

/** The answer to an upload: the id `request.resend` takes as `bodyUpload`, used once. */
export interface UploadedBody {
  upload: string
  size: number
}

/** The name a downloaded request body is saved under. */
export function requestBodyFileName(requestId: number): string {
  return `request-${requestId}.body`
}
