import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layering rules of eslint.config.js (docs/ARCHITECTURE.md), run through ESLint itself on
// snippets placed in each layer: a wrong import must be reported, the allowed one must not.
const root = resolve(__dirname, '../../..')
const eslint = new ESLint({ cwd: root })

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) })
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`)
}

const layering = /no-restricted-(imports|syntax)/

const cases: { file: string; denied: string[]; allowed: string[] }[] = [
  {
    file: 'shared/lint-probe.ts',
    denied: ["import { a } from '../electron/engine/engine'", "import { a } from '../renderer/src/App'", "import { a } from 'electron'", "import Database from 'better-sqlite3'", "import type { Database } from 'better-sqlite3'", "import { a } from '../test/support/x'"],
    allowed: ["import { a } from './clock'", "import { a } from './providers'", "import { z as a } from 'zod'"],
  },
  {
    file: 'renderer/src/views/lint-probe.ts',
    denied: ["import { a } from '../../../electron/engine/host'", "import { a } from '../../../electron/preload/index'", "import { a } from 'electron'", "import Database from 'better-sqlite3'"],
    allowed: ["import { a } from '../../../shared/contract'", "import { a } from '../lib/curl'", "import { useState as a } from 'react'"],
  },
  {
    file: 'electron/engine/host/lint-probe.ts',
    denied: ["import { a } from '../../main/ipc'", "import { a } from '../../preload/index'", "import { a } from '../../cli/listen'", "import { a } from '../../../renderer/src/App'", "import { a } from 'electron'", "import Database from 'better-sqlite3'", "import { a } from '../../../test/support/x'"],
    allowed: ["import type { Database as a } from 'better-sqlite3'", "import { a } from '../store'", "import { a } from '../../../shared/contract'"],
  },
  {
    file: 'electron/engine/engine-probe.ts',
    denied: ["import { a } from '../cli/listen'", "import { a } from '../main/index'", "import { a } from '../testing/receiver'"],
    allowed: ["import { a } from './store'"],
  },
  {
    file: 'electron/engine/store/lint-probe.ts',
    denied: ["import { a } from '../../main/ipc'", "import { a } from 'electron'", "import type { a } from '../sender/subscriptions'", "import { a } from '../clock'"],
    allowed: ["import Database from 'better-sqlite3'", "import { a } from './changes'", "import type { a } from '../../../shared/sender'"],
  },
  {
    file: 'electron/cli/lint-probe.ts',
    denied: ["import { a } from '../main/ipc'", "import { a } from '../../renderer/src/App'", "import { a } from 'electron'", "import Database from 'better-sqlite3'"],
    allowed: ["import { a } from '../engine/engine'", "import { a } from './commands'"],
  },
  {
    file: 'electron/testing/lint-probe.ts',
    denied: ["import { a } from '../cli/run'", "import { a } from '../main/index'", "import { a } from '../../renderer/src/App'", "import { a } from 'electron'", "import Database from 'better-sqlite3'", "import { a } from '../../test/support/x'"],
    allowed: ["import { a } from '../engine/receiver'", "import { a } from '../../shared/receiver'", "import { a } from './receiver'"],
  },
  {
    file: 'electron/main/lint-probe.ts',
    denied: ["import { a } from '../cli/listen'", "import { a } from '../../renderer/src/App'", "import Database from 'better-sqlite3'"],
    allowed: ["import { app as a } from 'electron'", "import { a } from '../engine/data-dir'"],
  },
  {
    file: 'electron/preload/lint-probe.ts',
    denied: ["import { a } from '../engine/engine'", "import { a } from '../main/ipc'"],
    allowed: ["import { contextBridge as a } from 'electron'", "import type { a } from '../../shared/bridge'"],
  },
]

// The doors: a domain folder of shared/ and a part of the engine are reached from outside only
// through their index.ts; inside, files import siblings, never their own door. test/ is exempt.
const doors = /^hookloop\/doors:/
const doorCases: { file: string; denied: string[]; allowed: string[] }[] = [
  {
    file: 'electron/cli/lint-probe.ts',
    denied: ["import { a } from '../../shared/scenario/validate'", "import { a } from '../engine/store/endpoints'", "import { a } from '../engine/conformance/consumer'", "export { a } from '../engine/host/guard'"],
    allowed: ["import { a } from '../../shared/scenario'", "import { a } from '../engine/store'", "import { a } from '../engine/trigger'", "import { a } from '../../shared/clock'"],
  },
  {
    file: 'electron/engine/host/lint-probe.ts',
    denied: ["import { a } from '../store/endpoints'", "import type { a } from '../../../shared/receiver/rules'", "import { a } from '../host'", "import { a } from '.'"],
    allowed: ["import { a } from '../store'", "import { a } from './views'", "import { a } from '../../../shared/receiver'"],
  },
  {
    file: 'electron/engine/conformance/consumer/lint-probe.ts',
    denied: ["import { a } from '../../sender/sender'"],
    allowed: ["import { a } from '../sender'", "import { a } from '../../sender'", "import { a } from './battery'"],
  },
  {
    file: 'electron/engine/engine-probe.ts',
    denied: ["import { a } from './store/endpoints'", "import { a } from './receiver/steps'"],
    allowed: ["import { a } from './store'", "import { a } from './data-dir'"],
  },
  {
    file: 'shared/scenario/lint-probe.ts',
    denied: ["import { a } from '../receiver/rules'", "import { a } from '../scenario'", "import { a } from '../providers/types'"],
    allowed: ["import { a } from './validate'", "import { a } from '../receiver'", "import { a } from '../signatures'"],
  },
  {
    file: 'shared/lint-probe.ts',
    denied: ["import { a } from './contract/views'", "import { a } from './event-catalog/overrides'"],
    allowed: ["import { a } from './contract'", "import { a } from './event-catalog'"],
  },
  {
    file: 'renderer/src/views/lint-probe.ts',
    denied: ["import { a } from '../../../shared/sender/policy'", "const a = import('../../../shared/contract/views')"],
    allowed: ["import { a } from '../../../shared/sender'", "import { a } from '../lib/curl'"],
  },
  {
    file: 'test/unit/lint-probe.test.ts',
    denied: [],
    allowed: ["import { a } from '../../shared/scenario/validate'", "import { a } from '../../electron/engine/store/endpoints'"],
  },
]

// The engine's parts import only the parts below them (docs/ARCHITECTURE.md): no part imports one
// above it, so the graph has no cycle; `providers` takes only types from `sender`.
const engineParts = /^hookloop\/engine-parts:/
const partCases: { file: string; denied: string[]; allowed: string[] }[] = [
  {
    file: 'electron/engine/clock/lint-probe.ts',
    denied: ["import { a } from '../store'", "import { a } from '../sender'"],
    allowed: ["import { a } from './virtual-clock'", "import { a } from '../../../shared/clock'"],
  },
  {
    file: 'electron/engine/sender/lint-probe.ts',
    denied: ["import { a } from '../receiver'", "import { a } from '../host'", "import { a } from '../engine'", "import { a } from '../trigger'"],
    allowed: ["import { a } from '../store'", "import { a } from '../scheduler'", "import { a } from '../providers'", "import { a } from './pump'"],
  },
  {
    file: 'electron/engine/providers/lint-probe.ts',
    denied: ["import { a } from '../sender'", "import { a } from '../receiver'"],
    allowed: ["import type { a } from '../sender'", "import { a } from '../signatures'"],
  },
  {
    file: 'electron/engine/new-part/lint-probe.ts',
    denied: ["import { a } from '../store'"],
    allowed: ["import { a } from './sibling'", "import { a } from '../../../shared/sender'"],
  },
  {
    file: 'electron/engine/engine-probe.ts',
    denied: [],
    allowed: ["import { a } from './host'", "import { a } from './store'"],
  },
]

describe('engine parts (eslint.config.js)', () => {
  for (const { file, denied, allowed } of partCases) {
    it(`${file}: a part above is reported, a part below is not`, { timeout: 60_000 }, async () => {
      for (const line of denied) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => engineParts.test(p)), line).toHaveLength(1)
      for (const line of allowed) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => engineParts.test(p)), line).toEqual([])
    })
  }
})

describe('doors (eslint.config.js)', () => {
  for (const { file, denied, allowed } of doorCases) {
    it(`${file}: an import past a door is reported, through it is not`, { timeout: 60_000 }, async () => {
      for (const line of denied) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => doors.test(p)), line).toHaveLength(1)
      for (const line of allowed) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => doors.test(p)), line).toEqual([])
    })
  }
})

describe('layering rules (eslint.config.js)', () => {
  for (const { file, denied, allowed } of cases) {
    it(`${file}: forbidden imports are reported, allowed ones are not`, { timeout: 60_000 }, async () => {
      for (const line of denied) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => layering.test(p)), line).toHaveLength(1)
      for (const line of allowed) expect((await problems(file, `${line}\nexport const b = a\n`)).filter((p) => layering.test(p)), line).toEqual([])
    })
  }

  it('a statement prepared or a transaction opened outside the store is reported; inside the store it is not', async () => {
    const prepared = "export const count = (db: { prepare(sql: string): { get(): unknown } }) => db.prepare('SELECT count(*) FROM events').get()\n"
    const transaction = 'export const twice = (db: { transaction(f: () => void): () => void }, f: () => void) => db.transaction(f)()\n'
    for (const code of [prepared, transaction]) {
      for (const outside of ['electron/engine/host/lint-probe.ts', 'electron/engine/sender/lint-probe.ts', 'electron/cli/lint-probe.ts']) {
        expect((await problems(outside, code)).filter((p) => layering.test(p)), outside).toHaveLength(1)
      }
      expect((await problems('electron/engine/store/lint-probe.ts', code)).filter((p) => layering.test(p))).toEqual([])
    }
  })
})
