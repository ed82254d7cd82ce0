import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { misplacedTests, mirrorOf, readFrom, realTree } from './support/test-paths'

// The tree's tests sit where their modules are (test/unit/lint/support/test-paths.ts says the
// rule); the rule is checked against the real tree, and shown to bite on a test put elsewhere.
const root = resolve(__dirname, '../../..')
const tree = realTree(root)
const read = readFrom(root)

describe('tests mirror the source', () => {
  it('every test named after a module it imports sits in that module’s mirrored folder', () => {
    expect(misplacedTests(tree, read)).toEqual([])
  })

  it('mirrors each source folder to one test folder', () => {
    expect(mirrorOf('electron/engine/receiver')).toBe('receiver')
    expect(mirrorOf('electron/engine/conformance/consumer')).toBe('conformance/consumer')
    expect(mirrorOf('electron/engine')).toBe('engine')
    expect(mirrorOf('electron/cli')).toBe('cli')
    expect(mirrorOf('electron/main')).toBe('shell')
    expect(mirrorOf('renderer/src/state')).toBe('renderer/state')
    expect(mirrorOf('shared/providers')).toBe('shared/providers')
    expect(mirrorOf('shared/receiver')).toBe('shared/receiver')
    expect(mirrorOf('shared')).toBe('shared')
    expect(mirrorOf('scripts/native')).toBeUndefined()
  })

  it('flags a test of a CLI module put under the receiver’s tests', () => {
    const probe = 'test/unit/receiver/safe-log.test.ts'
    const text = (path: string) => (path === probe ? "import { redact } from '../../../electron/cli/safe-log'\n" : read(path))
    expect(misplacedTests(tree, text, [probe]).filter((m) => m.test === probe)).toEqual([
      { test: probe, module: 'electron/cli/safe-log.ts', expected: ['test/unit/cli/'] },
    ])
  })

  it('flags a test of a folder’s door away from the folder, and accepts one beside it', () => {
    const probe = 'test/integration/receiver/tunnel.test.ts'
    const door = 'test/integration/conformance/sender.test.ts'
    const text = (path: string) => (path === probe ? "import { createTunnelManager } from '../../../electron/engine/tunnel'\n" : read(path))
    const found = misplacedTests(tree, text, [probe])
    expect(found.filter((m) => m.test === probe)).toEqual([
      { test: probe, module: 'electron/engine/tunnel/index.ts', expected: ['test/integration/tunnel/', 'test/integration/engine/'] },
    ])
    expect(read(door)).toMatch(/from '\.\.\/\.\.\/\.\.\/electron\/engine\/conformance\/sender'/)
    expect(found.filter((m) => m.test === door)).toEqual([])
  })

  it('lets a name stand anywhere when the test imports that module for its types alone, or not at all', () => {
    const typesOnly = 'test/integration/receiver/feed.test.ts'
    const unrelated = 'test/integration/receiver/delivery.test.ts'
    const text = (path: string) => {
      if (path === typesOnly) return "import type { FeedPage } from '../../../shared/contract'\nimport { a } from 'vitest'\n"
      if (path === unrelated) return "import { createTunnelManager } from '../../../electron/engine/tunnel'\n"
      return read(path)
    }
    expect(misplacedTests(tree, text, [typesOnly, unrelated]).filter((m) => m.test === typesOnly || m.test === unrelated)).toEqual([])
  })
})
