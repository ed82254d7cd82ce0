import { readFileSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'
import { assertBuilt, runNode } from './support'

// docs/testing.md shows three example projects, file by file; here every block on the page is
// checked against the project's file and each project is run with its own runner against the
// BUILT package (import 'hookloop/testing' through package.json's exports), so the page cannot rot.
// The projects repeat their code under test (sendWithRetry) on purpose: each is a whole project a
// reader copies for one runner, shown whole on the page, so none may import from another.
const DOC = resolve(REPO_ROOT, 'docs/testing.md')
const EXAMPLES = resolve(REPO_ROOT, 'test/testing/examples')
const bin = (path: string) => resolve(REPO_ROOT, 'node_modules', path)

interface DocBlock {
  file: string | null
  text: string
}

function docBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = []
  const fence = /(?:<!-- example: (\S+) -->\n)?```([a-z]*)\n([\s\S]*?)```\n/g
  // Shell blocks are commands to type (installing Hookloop), not files of the example projects.
  for (const match of markdown.matchAll(fence)) if (match[2] !== 'sh') blocks.push({ file: match[1] ?? null, text: match[3]! })
  return blocks
}

// A runner's cache (vitest's node_modules/.vite) is not part of a project.
function exampleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name !== 'node_modules').flatMap((entry) => (entry.isDirectory() ? exampleFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
}

describe('docs/testing.md', () => {
  beforeAll(assertBuilt)
  const blocks = docBlocks(readFileSync(DOC, 'utf8'))

  it('shows every file of the example projects, each block exactly as the file is', () => {
    expect(blocks.length).toBeGreaterThan(0)
    for (const block of blocks) {
      expect(block.file, `a block on the page is not an example file:\n${block.text}`).not.toBeNull()
      expect(block.text, `${block.file} differs from its block on the page`).toBe(readFileSync(resolve(REPO_ROOT, block.file!), 'utf8'))
    }
    const shown = new Set(blocks.map((b) => b.file))
    const files = exampleFiles(EXAMPLES).map((file) => relative(REPO_ROOT, file))
    expect(files.filter((file) => !shown.has(file))).toEqual([])
  })

  it('vitest runs its example against the built package', async () => {
    const result = await runNode([bin('vitest/vitest.mjs'), 'run'], join(EXAMPLES, 'vitest'))
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Tests\s+3 passed \(3\)/)
  })

  it('Jest runs its example (CommonJS) against the built package', async () => {
    const result = await runNode([bin('jest/bin/jest.js'), '--ci'], join(EXAMPLES, 'jest'))
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stderr).toMatch(/Tests:\s+1 passed, 1 total/)
  })

  it('node:test runs its example against the built package', async () => {
    const result = await runNode(['--test'], join(EXAMPLES, 'node-test'))
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/# pass 2\n# fail 0/)
  })
})
