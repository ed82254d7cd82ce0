// Who is signed in to a served Hookloop with accounts, and signing out (docs/team.md, "Accounts"):
// the control server's account routes, on the page's own origin. Without accounts (the run's
// token, the Electron window) there is nobody signed in and these answer null.

export interface SignedIn {
  email: string
  name: string
  role: 'viewer' | 'editor' | 'admin'
  /** Sent back with sign-out: the session's CSRF token. */
  csrf: string
}

/** The signed-in account, or null when this page is not served with accounts. */
export async function signedIn(): Promise<SignedIn | null> {
  if (window.location.protocol !== 'http:' && window.location.protocol !== 'https:') return null
  try {
    const response = await fetch('/account/me', { credentials: 'same-origin', cache: 'no-store' })
    return response.ok ? ((await response.json()) as SignedIn) : null
  } catch {
    return null
  }
}

let leaving = false
/**
 * Shows the sign-in page, once: a sign-out ends the page's socket too (its close says so), and a
 * second navigation to the same page would abort the first one under way.
 */
export function goToSignIn(): void {
  if (leaving) return
  leaving = true
  window.location.assign('/signin')
}

/** Ends the session on the server, then shows the sign-in page. */
export async function signOut(account: SignedIn): Promise<void> {
  await fetch('/signout', { method: 'POST', credentials: 'same-origin', headers: { 'x-hookloop-csrf': account.csrf } })
  goToSignIn()
}
