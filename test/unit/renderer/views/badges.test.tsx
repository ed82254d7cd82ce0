// The duplicate badge as the timeline draws it, and the README's words for it: the same number.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { DuplicateBadge } from '../../../../renderer/src/views/badges'

// The renderer's tests compile without Node's types: node:fs is loaded by name, typed here.
const fs = (await import(/* @vite-ignore */ ['node', 'fs'].join(':'))) as { readFileSync(path: URL, encoding: 'utf8'): string }
const README = fs.readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8')
const text = (html: string) => html.replace(/<[^>]+>/g, '')

describe('the duplicate badge', () => {
  it('counts the arrivals beyond the first (three arrivals: "2 dup"), and the README says so', () => {
    // A row's `duplicates` is its arrivals beyond the first: 3 arrivals → 2.
    expect(text(renderToStaticMarkup(<DuplicateBadge count={2} />))).toBe('2 dup')
    expect(renderToStaticMarkup(<DuplicateBadge count={0} />)).toBe('')
    expect(README).toContain('three arrivals show `2 dup`')
    expect(README).not.toMatch(/dup ×/)
  })
})
