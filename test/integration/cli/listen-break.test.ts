// `hookloop listen --break` (the built CLI): in a real terminal (a pseudo-terminal made by
// util-linux's `script`) a matching request is held, printed whole, and answered by hand at the
// prompt; a request that does not match passes; without a terminal --break refuses to start.
import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { post } from '../../support/forward-apps'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

describe('hookloop listen --break', () => {
  it('refuses without a terminal, saying why', async () => {
    const temp = makeTempDir('hookloop-break-')
    cleanups.push(temp.cleanup)
    const result = await runCli(['listen', '--port', '0', '--data', temp.dir, '--break', 'path=/h/default'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--break holds each matching request until you act on it at a prompt, and this is not a terminal/)
    const bad = await runCli(['listen', '--port', '0', '--data', temp.dir, '--break', 'colour=red'])
    expect(bad.stderr).toMatch(/this is not a terminal/)
  })

  it('holds a matching request in a terminal and answers it by hand at the prompt', async () => {
    const temp = makeTempDir('hookloop-break-')
    cleanups.push(temp.cleanup)
    const command = [process.execPath, CLI_PATH, 'listen', '--port', '0', '--data', temp.dir, '--break', "'method=POST json.type=invoice.paid limit=60'"].join(' ')
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TERM: 'dumb' } })
    cleanups.push(() => child.kill('SIGKILL'))
    let out = ''
    const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = []
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      for (const w of [...waiters]) {
        const m = out.match(w.pattern)
        if (m) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(m)
        }
      }
    })
    const seen = (pattern: RegExp) => new Promise<RegExpMatchArray>((resolve) => {
      const m = out.match(pattern)
      if (m) resolve(m)
      else waiters.push({ pattern, resolve })
    })
    const url = (await seen(/Hookloop receiver on (http:\/\/[\d.:]+)/))[1]
    await seen(/Press Ctrl-C to stop\./)
    expect(out).toContain('Breakpoint: Hold method is POST and type is "invoice.paid" on any endpoint for up to 60 s, then release it as it came')
    expect(await post(`${url}/h/default`, '{"type":"invoice.created"}')).toMatchObject({ status: 200 })

    const answer = post(`${url}/h/default`, '{"type":"invoice.paid","amount":100}')
    await seen(/\[r\]elease {2}\[e\]dit in \$EDITOR {2}\[a\]nswer {2}\[d\]rop/)
    expect(out).toMatch(/HELD request \d+: POST \/h\/default/)
    expect(out).toContain('{"type":"invoice.paid","amount":100}')
    child.stdin.write('a\r')
    await seen(/status: /)
    child.stdin.write('418\r')
    await seen(/body \(one line, may be empty\): /)
    child.stdin.write('teapot\r')
    const answered = await answer
    expect(answered).toMatchObject({ status: 418 })
    expect('body' in answered && answered.body.toString()).toBe('teapot')
    await seen(/answered 418 by hand/)
    child.kill('SIGTERM')
  })
})
