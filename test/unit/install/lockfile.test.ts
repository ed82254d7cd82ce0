// What a clean `npm install` depends on, read from package.json and package-lock.json: the lock's
// root entry agrees with package.json (else the install rewrites the lock and leaves the tree
// dirty), and every locked package accepts the lowest Node the project names (else the install
// prints EBADENGINE warnings on the Node the README tells people to use).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

// npm's own range maths, as npm applies it to `engines`.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean
  minVersion(range: string): { version: string } | null
}

type Manifest = Record<string, unknown> & { engines?: { node?: string } }
const readJson = (file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>
const manifest = readJson('package.json') as Manifest
const lock = readJson('package-lock.json') as { packages: Record<string, Manifest & { version?: string; optional?: boolean }> }

describe('package-lock.json', () => {
  it('has a root entry that agrees with package.json, so npm install does not rewrite it', () => {
    const root = lock.packages['']
    if (!root) throw new Error('package-lock.json has no root entry (packages[""])')
    for (const field of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'devDependencies'] as const) {
      expect({ field, value: root[field] }).toEqual({ field, value: manifest[field] })
    }
  })

  it('holds only packages that run on the lowest Node package.json and the README name', () => {
    const range = manifest.engines?.node
    if (!range) throw new Error('package.json names no engines.node')
    const lowest = semver.minVersion(range)?.version
    if (!lowest) throw new Error(`package.json engines.node "${range}" admits no version`)
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain(`with Node.js ${lowest.replace(/\.0$/, '')} or newer`)
    const refusing = Object.entries(lock.packages)
      // npm skips an optional package whose engines refuse this Node, silently (mockttp's tls-impersonate).
      .filter(([path, entry]) => path !== '' && !entry.optional && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(lowest, entry.engines!.node!))
      .map(([path, entry]) => `${path}@${entry.version} wants Node ${entry.engines!.node}`)
    expect(refusing).toEqual([])
  })
})
