// The pages a person sees before the app when a served Hookloop has accounts: sign in, and join
// (the first admin through the setup link, a member through an invite). Plain HTML forms, no
// script and no inline style, so the page's CSP stays strict (only `form-action 'self'` more).

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Hookloop</title><link rel="stylesheet" href="/account/page.css"></head>
<body><main><h1>Hookloop</h1><h2>${escape(title)}</h2>${body}</main></body></html>
`
}

const notice = (message: string | undefined): string => (message ? `<p class="notice" role="alert">${escape(message)}</p>` : '')

/** The path that starts a sign-in through the team's identity provider (oidc-routes.ts). */
export const OIDC_START_PATH = '/auth/oidc/start'

/** `provider`: the identity provider's name when one is configured, for its button above the form. */
export function signInPage(csrf: string, message?: string, email = '', provider?: string): string {
  const through = provider ? `<p><a class="provider" href="${OIDC_START_PATH}">Sign in with ${escape(provider)}</a></p><p class="or">or with your Hookloop password</p>` : ''
  return page(
    'Sign in',
    `${notice(message)}${through}<form method="post" action="/signin">
<input type="hidden" name="csrf" value="${escape(csrf)}">
<label>Email <input name="email" type="email" autocomplete="username" required value="${escape(email)}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>`,
  )
}

export function joinPage(csrf: string, link: string, role: string, first: boolean, minLength: number, message?: string): string {
  const intro = first ? 'Create the first admin of this Hookloop.' : `You are invited as ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}: create your account.`
  return page(
    first ? 'Set up Hookloop' : 'Join Hookloop',
    `<p>${escape(intro)}</p>${notice(message)}<form method="post" action="/join">
<input type="hidden" name="csrf" value="${escape(csrf)}"><input type="hidden" name="link" value="${escape(link)}">
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Name <input name="name" autocomplete="name"></label>
<label>Password (at least ${minLength} characters) <input name="password" type="password" autocomplete="new-password" minlength="${minLength}" required></label>
<button type="submit">Create the account</button></form>`,
  )
}

export function linkGonePage(): string {
  return page('This link is not valid', '<p>It was used, replaced or has expired. Ask an admin for a new one, or <a href="/signin">sign in</a>.</p>')
}

/** A sign-in through the identity provider that did not end in a session: what happened, and the way back. */
export function providerProblemPage(title: string, message: string): string {
  return page(title, `<p class="notice" role="alert">${escape(message)}</p><p><a href="/signin">Back to sign in</a></p>`)
}

/**
 * After the provider's callback: the session cookie is SameSite=Strict, and a browser leaves it out
 * of every request of a redirect chain that a foreign site (the provider) began; so the way to the
 * app is a navigation of this page's own, which carries it.
 */
export function signedInPage(to: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escape(to)}">
<title>Signed in · Hookloop</title><link rel="stylesheet" href="/account/page.css"></head>
<body><main><h1>Hookloop</h1><h2>Signed in</h2><p><a href="${escape(to)}">Open Hookloop</a></p></main></body></html>
`
}

export const PAGE_CSS = `body{font:15px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1c2330;margin:0}
main{max-width:22rem;margin:12vh auto;padding:2rem;background:#fff;border:1px solid #dde2ea;border-radius:8px}
h1{font-size:1.1rem;margin:0 0 .25rem}h2{font-size:1.4rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0}input{display:block;width:100%;box-sizing:border-box;padding:.45rem;margin-top:.25rem;font:inherit}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.notice{color:#a3261b}
a.provider{display:block;text-align:center;padding:.55rem 1rem;border:1px solid #1c2330;border-radius:6px;color:inherit;text-decoration:none}
.or{color:#5b6575;text-align:center;margin:1rem 0 0}
`
