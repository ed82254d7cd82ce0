// The install lines people copy from README.md, docs/ci.md and docs/testing.md work today: Hookloop
// is on no registry and no release exists yet, so every `npm install` in a command block installs
// a clone (`.`) or a tarball packed from one, and no line points at a placeholder owner or a
// release download. (Each line was run for real in a temp folder when written; the packed tarball
// itself is installed and run by test/integration/install/tarball.test.ts.)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

const PAGES = ['README.md', 'docs/ci.md', 'docs/testing.md']

/** The lines of the page's fenced code blocks (shell and YAML alike). */
function commandLines(text: string): string[] {
  const lines: string[] = []
  let inBlock = false
  for (const line of text.split('\n')) {
    if (line.trim().startsWith('```')) inBlock = !inBlock
    else if (inBlock) lines.push(line.trim())
  }
  return lines
}

describe.each(PAGES)('%s', (page) => {
  const text = readFileSync(join(REPO_ROOT, page), 'utf8')

  it('names no placeholder owner and no release download', () => {
    expect(text).not.toMatch(/\bOWNER\b/)
    expect(text).not.toMatch(/releases\/download/)
  })

  it('installs Hookloop only from a clone or a tarball packed from one', () => {
    const installs = commandLines(text).filter((line) => /\bnpm (install|i)\b/.test(line))
    for (const line of installs) {
      const args = line.replace(/^-\s+/, '').replace(/#.*$/, '').trim().split(/\s+/)
      const targets = args.slice(args.indexOf('npm') + 2).filter((arg) => !arg.startsWith('-'))
      for (const target of targets) expect(target, `${page}: ${line}`).toMatch(/^\.$|\.tgz$/)
    }
  })

  it('clones from `<repository>` and says what goes there', () => {
    const clones = commandLines(text).filter((line) => line.startsWith('git clone'))
    expect(clones.length).toBeGreaterThan(0)
    expect(text).toMatch(/`<repository>` (is|the address)|write `<repository>`/)
    for (const clone of clones) expect(clone).toMatch(/^git clone <repository>/)
  })
})
