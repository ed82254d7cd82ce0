// docs/scenarios.md's "Writing scenarios by hand": every JSON block marked
// `<!-- example: FILE PATH -->` is exactly that part of an example file, the blocks of each file
// cover all of it, and each file runs under the real `hookloop run` with every expectation holding.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'
import { runCli } from '../cli/support'

const DOC = readFileSync(join(REPO_ROOT, 'docs/scenarios.md'), 'utf8')
const BLOCKS = [...DOC.matchAll(/<!-- example: (\S+) (\S+) -->\n```json\n([\s\S]*?)\n```/g)].map((m) => ({ file: m[1]!, path: m[2]!, text: m[3]! }))
const FILES = [...new Set(BLOCKS.map((b) => b.file))]

describe('the by-hand walk-through in docs/scenarios.md', () => {
  it('has blocks for both seeds', () => {
    expect(FILES).toEqual(['examples/provider-a-by-hand.json', 'examples/provider-b-written-out.json'])
  })

  it.each(BLOCKS.map((b) => [`${b.file} ${b.path}`, b] as const))('%s is exactly that part of the file', (_, block) => {
    const file = JSON.parse(readFileSync(join(REPO_ROOT, block.file), 'utf8')) as Record<string, unknown>
    expect(JSON.parse(block.text)).toEqual(file[block.path])
  })

  it.each(FILES)('%s: the blocks cover the whole file, and it passes under hookloop run', async (name) => {
    const file = JSON.parse(readFileSync(join(REPO_ROOT, name), 'utf8')) as Record<string, unknown>
    const shown = new Set(BLOCKS.filter((b) => b.file === name).map((b) => b.path))
    expect(Object.keys(file).filter((key) => !['version', 'name', 'description'].includes(key) && !shown.has(key))).toEqual([])
    const result = await runCli(['run', join(REPO_ROOT, name)])
    expect(result.code, result.stdout + result.stderr).toBe(0)
    // The summary the walk-through quotes.
    const quoted = new RegExp(`hookloop run ${name.replace(/[.]/g, '\\.')}\\n(?:#.*\\n)*# … (PASS: \\d+ of \\d+ expectations hold)`).exec(DOC)?.[1]
    expect(quoted).toBeDefined()
    expect(result.stdout.trim().split('\n').at(-1)).toBe(quoted)
  })
})
