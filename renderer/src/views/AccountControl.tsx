// Who is signed in and their role, with Sign out (and an admin's Members, API tokens and Audit): shown only when the page is served with
// accounts (`hookloop serve --accounts`); the run's token and the Electron window have nobody.
import { useEffect, useState } from 'react'
import { signedIn, signOut, type SignedIn } from '../transport/account'
import { AuditPanel } from './AuditPanel'
import { MembersPanel } from './MembersPanel'
import { TokensPanel } from './TokensPanel'

export function AccountControl() {
  const [account, setAccount] = useState<SignedIn | null>(null)
  // One of the admin's panels open at a time.
  const [open, setOpen] = useState<'members' | 'tokens' | 'audit' | null>(null)
  const toggle = (panel: 'members' | 'tokens' | 'audit') => setOpen(open === panel ? null : panel)
  useEffect(() => {
    let live = true
    void signedIn().then((found) => live && setAccount(found))
    return () => {
      live = false
    }
  }, [])
  if (!account) return null
  return (
    <span className="row" data-testid="signed-in" style={{ flexWrap: 'nowrap', gap: 6, position: 'relative' }}>
      <span className="ellipsis account-name" title={`${account.email} (${account.role})`}>
        {account.name} <span className="hint">{account.role}</span>
      </span>
      {account.role === 'admin' && (
        <>
          <button className={`btn small${open === 'members' ? ' on' : ''}`} onClick={() => toggle('members')} data-testid="members-button">
            Members
          </button>
          <button className={`btn small${open === 'tokens' ? ' on' : ''}`} onClick={() => toggle('tokens')} data-testid="tokens-button">
            Tokens
          </button>
          <button className={`btn small${open === 'audit' ? ' on' : ''}`} onClick={() => toggle('audit')} data-testid="audit-button">
            Audit
          </button>
        </>
      )}
      {open === 'members' && <MembersPanel />}
      {open === 'tokens' && <TokensPanel />}
      {open === 'audit' && <AuditPanel />}
      <button className="btn small" onClick={() => void signOut(account)}>
        Sign out
      </button>
    </span>
  )
}
