// A webhook body as large as a provider delivers: GitHub and GitLab cap payloads at 25 MB, and a
// `push` of a big merge comes close. Shaped like GitHub's push (commits first, `head_commit` last,
// so a field read from it lies past the first 24 MiB), exactly `bytes` long, built once per call.
import { createHash } from 'node:crypto'

/** 25 MiB: the providers' cap (25 MB) read as the larger unit. */
export const PROVIDER_MAX_BODY = 25 * 1024 * 1024

export interface ProviderSizedBody {
  body: Buffer
  /** The id in the body's last field, `head_commit.id`. */
  headCommit: string
  sha256: string
}

const sha1Like = (n: number) => createHash('sha1').update(String(n)).digest('hex')

export function providerSizedBody(bytes = PROVIDER_MAX_BODY): ProviderSizedBody {
  const headCommit = sha1Like(-1)
  const head = Buffer.from(`{"ref":"refs/heads/main","before":"${sha1Like(-2)}","after":"${headCommit}","repository":{"id":1296269,"full_name":"octocat/Hello-World"},"commits":[`)
  const tail = Buffer.from(`],"head_commit":{"id":"${headCommit}","message":"Merge the large branch"}}`)
  const commits: Buffer[] = []
  let size = head.length + tail.length
  // Commits until the next one would not fit; the last commit's message pads to the exact size.
  for (let n = 0; ; n++) {
    const commit = Buffer.from(`${n === 0 ? '' : ','}{"id":"${sha1Like(n)}","message":"change ${n}","added":["src/file-${n}.ts"],"removed":[],"modified":["README.md"]}`)
    if (size + commit.length + 200 > bytes) {
      const stub = `${n === 0 ? '' : ','}{"id":"${sha1Like(n)}","message":""}`
      const pad = bytes - size - stub.length
      commits.push(Buffer.from(`${n === 0 ? '' : ','}{"id":"${sha1Like(n)}","message":"${'m'.repeat(pad)}"}`))
      break
    }
    commits.push(commit)
    size += commit.length
  }
  const body = Buffer.concat([head, ...commits, tail])
  if (body.length !== bytes) throw new Error(`the body is ${body.length} bytes, not ${bytes}`)
  return { body, headCommit, sha256: sha256(body) }
}

export const sha256 = (bytes: Buffer | Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')
