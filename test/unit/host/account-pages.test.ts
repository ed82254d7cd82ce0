// The sign-in and join pages echo what a person typed (an email) and carry secrets (the CSRF token,
// a link): every value is escaped, and the pages hold no script and no inline style (their CSP).
import { describe, expect, it } from 'vitest'
import { joinPage, signInPage } from '../../../electron/engine/host/account-pages'

describe('the account pages', () => {
  it('escape what they echo', () => {
    const page = signInPage('tok"en', 'Wrong <b>email</b>', '"><script>alert(1)</script>')
    expect(page).not.toContain('<script>')
    expect(page).not.toContain('<b>')
    expect(page).toContain('value="tok&#34;en"')
    expect(page).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"')
  })

  it('say the role an invite gives, and post to us without script or inline style', () => {
    const page = joinPage('c', 'l', 'editor', false, 12)
    expect(page).toContain('You are invited as an editor')
    expect(joinPage('c', 'l', 'viewer', false, 12)).toContain('as a viewer')
    expect(joinPage('c', 'l', 'admin', true, 12)).toContain('Create the first admin')
    expect(page).toContain('<form method="post" action="/join">')
    expect(page).not.toMatch(/<script|style=/)
  })
})
