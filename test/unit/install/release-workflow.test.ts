import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

// The release is a step a maintainer runs, never a push: it packs the tarball the docs install
// from, and publishes to npm only when asked and only once package.json allows it.
const WORKFLOW = readFileSync(resolve(REPO_ROOT, '.github/workflows/release.yml'), 'utf8')
const step = (name: string) => {
  const from = WORKFLOW.indexOf(`- name: ${name}`)
  expect(from, name).toBeGreaterThan(0)
  const next = WORKFLOW.indexOf('\n      - ', from + 1)
  return WORKFLOW.slice(from, next < 0 ? undefined : next)
}

describe('the release workflow', () => {
  it('runs only when started by hand', () => {
    const on = WORKFLOW.slice(WORKFLOW.indexOf('\non:\n'), WORKFLOW.indexOf('\npermissions:'))
    expect(on).toMatch(/^\non:\n {2}workflow_dispatch:\n/)
    expect(on).not.toMatch(/^ {2}(push|pull_request|schedule|release):/m)
  })

  it('packs the tarball with npm pack and attaches it to the release of the tag', () => {
    expect(step('The tarball (prepack builds the CLI, the app and hookloop/testing)')).toContain('run: npm pack')
    expect(step('Attach it to the release of the tag')).toContain('gh release upload "$TAG" hookloop-*.tgz')
  })

  it('publishes to npm only when the npm input is checked, and refuses while package.json is private', () => {
    expect(WORKFLOW).toMatch(/ {6}npm:\n(?: {8}.*\n)*? {8}type: boolean\n {8}default: false/)
    const publish = step('Publish to npm')
    expect(publish).toContain('if: inputs.npm')
    expect(publish).toContain("require('./package.json').private === true")
    expect(publish).toContain('npm publish hookloop-*.tgz --provenance --access public')
    expect(publish).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')
  })
})
