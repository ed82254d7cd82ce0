import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { readdirSync } from 'node:fs'
import { dirname, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The Jest example project of hookloop/testing (docs/testing.md) is CommonJS, as Jest runs it.
    files: ['test/testing/examples/jest/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.jest } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...layering(),
  doors(),
)

// The doors of docs/ARCHITECTURE.md: each domain folder of shared/ and each part of the engine is
// reached from outside only through its index.ts, so a folder's inside can change without its
// importers changing; inside, files import their siblings, never their own door (that would be a
// cycle; a type-only import leaves nothing at run time, so a pack's type may name the catalog's ids). The specifier is resolved against the importing file, so the rule does not depend on
// how many `../` it takes. test/ is exempt: a test imports the file it tests.
function doors() {
  const root = dirname(fileURLToPath(import.meta.url))
  const folders = (dir) => readdirSync(`${root}/${dir}`, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${dir}/${e.name}`)
  const doorways = [...folders('shared'), ...folders('electron/engine')]
  const doorOf = (path) => doorways.find((door) => path.startsWith(`${door}/`))
  const rule = {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const file = relative(root, context.filename).split(sep).join('/')
      const own = doorOf(file)
      const check = (node) => {
        const spec = node.source?.value
        if (typeof spec !== 'string' || !spec.startsWith('.')) return
        const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.(ts|tsx|js)$/, '').replace(/\/index$/, '')
        const door = doorOf(target)
        if (door && door !== own) {
          const through = posix.relative(posix.dirname(file), door)
          context.report({ node: node.source, message: `'${spec}' reaches inside ${door}/: import its door '${through.startsWith('.') ? through : './' + through}' (${door}/index.ts), and export what you need from there.` })
        } else if (own && target === own && node.importKind !== 'type') {
          context.report({ node: node.source, message: `'${spec}' is ${own}/index.ts, this file's own door: import the sibling file directly (through the door it would be an import cycle).` })
        }
      }
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
    },
  }
  // Which parts of the engine a part may import (docs/ARCHITECTURE.md, "The engine's parts"): the
  // graph has no cycle, so a part can be understood from the parts below it. `engine` and `trigger`
  // are the composing files beside the parts (engine.ts, trigger.ts); `:type` admits types only.
  const partsBelow = {
    clock: [], signatures: [], store: [], tunnel: [], retention: ['store'], accounts: ['store'], scheduler: ['clock', 'store'],
    sender: ['clock', 'providers', 'scheduler', 'signatures', 'store'], providers: ['sender:type', 'signatures', 'store'],
    receiver: ['clock', 'payload-schemas', 'providers', 'sender', 'signatures', 'store'], feed: ['sender', 'store'],
    exports: ['receiver', 'sender', 'signatures', 'store'], recorder: ['engine', 'sender', 'store'],
    conformance: ['clock', 'providers', 'receiver', 'sender', 'signatures', 'store'],
    scenarios: ['clock', 'engine', 'exports', 'providers', 'recorder', 'signatures', 'store', 'tunnel'],
    host: ['accounts', 'clock', 'conformance', 'contracts', 'engine', 'exports', 'feed', 'providers', 'receiver', 'recorder', 'retention', 'scenarios', 'scheduler', 'sender', 'signatures', 'store', 'trigger', 'tunnel'],
    mcp: ['contracts', 'host', 'providers', 'receiver', 'scenarios', 'signatures', 'store', 'trigger'],
    contracts: ['payload-schemas', 'receiver:type', 'scenarios', 'store'],
    'payload-schemas': ['store'],
  }
  const partOf = (path) => /^electron\/engine\/([^/]+)/.exec(path)?.[1]?.replace(/\.(ts|tsx|js)$/, '')
  const parts = {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const file = relative(root, context.filename).split(sep).join('/')
      const part = file.split('/').length > 3 ? partOf(file) : undefined
      // A new part starts with no other part below it, until the table says which.
      const below = part ? (partsBelow[part] ?? []) : undefined
      const check = (node) => {
        const spec = node.source?.value
        if (!below || typeof spec !== 'string' || !spec.startsWith('.')) return
        const target = partOf(posix.normalize(posix.join(posix.dirname(file), spec)))
        if (!target || target === part || below.includes(target)) return
        if (below.includes(`${target}:type`) && node.importKind === 'type') return
        context.report({ node: node.source, message: `electron/engine/${part}/ may import only ${below.join(', ') || 'no other part of the engine'}; '${spec}' is ${target}/ (docs/ARCHITECTURE.md, the engine's parts).` })
      }
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
    },
  }
  return {
    files: ['electron/**/*.{ts,tsx}', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs,js}'],
    plugins: { hookloop: { rules: { doors: rule, 'engine-parts': parts } } },
    rules: { 'hookloop/doors': 'error', 'hookloop/engine-parts': 'error' },
  }
}

// The layering of docs/ARCHITECTURE.md, enforced: a wrong import fails `npm run lint`. Imports are
// relative (no path aliases), so a layer is recognised by the folder a chain of `../` lands on; no
// folder inside a layer shares a name with another layer, so the match cannot be mistaken.
function layering() {
  const electron = {
    name: 'electron',
    message: 'Only electron/main and electron/preload load Electron: the engine and the CLI run as plain Node processes, and there is no Electron binary in CI.',
  }
  const sqlite = {
    name: 'better-sqlite3',
    allowTypeImports: true,
    message: 'SQL lives in electron/engine/store/: call a store module (a type-only import to pass a Database handle along is allowed).',
  }
  const noSqlite = { name: 'better-sqlite3', message: 'shared/ and renderer/ never touch the database: the engine owns it (electron/engine/store/).' }
  const up = (folders, message) => ({ regex: `^(\\.\\./)+(${folders})(/|$)`, message })
  const toTest = up('test', 'Production code does not import test/.')
  const rule = (paths, patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] })
  const engineUp = up('(electron/)?(main|preload|cli|testing)|renderer', 'The engine never imports the transport (electron/main, electron/preload), the CLI or the UI: they call it, not the other way round.')
  const engine = [engineUp, toTest]
  return [
    {
      files: ['shared/**'],
      rules: rule([electron, noSqlite], [up('electron|renderer', 'shared/ is imported by every layer and imports none of them (only its own files and plain packages).'), toTest]),
    },
    {
      files: ['renderer/**'],
      rules: rule([electron, noSqlite], [up('electron', 'The renderer reaches the engine only through the bridge (window.hookloop) and imports only shared/ and its own code.'), toTest]),
    },
    { files: ['electron/engine/**'], ignores: ['electron/engine/store/**'], rules: rule([electron, sqlite], engine) },
    {
      files: ['electron/engine/store/**'],
      rules: rule([electron], [
        ...engine,
        // One `../` from the store lands on another part of the engine (sender/, clock/ …).
        { regex: '^\\.\\./(?!\\.\\./)', message: 'The store is the engine\'s lowest layer: it imports its own files, shared/ and packages, never another part of the engine; a type it stores belongs in the store (or shared/), not in the part that uses it.' },
      ]),
    },
    {
      files: ['electron/cli/**'],
      rules: rule([electron, sqlite], [up('(electron/)?(main|preload)|renderer', 'The CLI drives the engine; it does not import the Electron shell or the UI.'), toTest]),
    },
    {
      // hookloop/testing: a facade over the engine for test files; like the CLI it drives the
      // engine and never loads the Electron shell, the CLI or the UI.
      files: ['electron/testing/**'],
      rules: rule([electron, sqlite], [up('(electron/)?(main|preload|cli)|renderer', 'hookloop/testing drives the engine (electron/engine) and shared/; it does not import the Electron shell, the CLI or the UI.'), toTest]),
    },
    {
      files: ['electron/main/**'],
      rules: rule([sqlite], [up('(electron/)?cli|renderer', 'The Electron shell starts the engine; it does not import the CLI or the UI (shared helpers belong in electron/engine or shared/).'), toTest]),
    },
    {
      files: ['electron/preload/**'],
      rules: rule([sqlite], [up('(electron/)?(engine|main|cli)|renderer', 'The preload only exposes the bridge of shared/contract/bridge.ts; it runs in the renderer and cannot load the engine.'), toTest]),
    },
    {
      // Statements are prepared (and transactions opened) only in the store: outside it, SQL is a
      // store module's job.
      files: ['electron/**', 'shared/**', 'renderer/**'],
      ignores: ['electron/engine/store/**'],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(prepare|pragma|transaction)$/]",
            message: 'SQL lives in electron/engine/store/: add or call a store module instead of preparing a statement or opening a transaction here (store/database.ts transactional() groups store calls).',
          },
        ],
      },
    },
  ]
}
