// Who is signed in and their role, with Sign out (and an admin's Members and Audit): shown only when the page is served with
// accounts (`hookloop serve --accounts`); the run's token and the Electron window have nobody.
import { useEffect, useState } from 'react'
import { signedIn, signOut, type SignedIn } from '../transport/account'
import { AuditPanel } from './AuditPanel'
import { MembersPanel } from './MembersPanel'

export function AccountControl() {
  const [account, setAccount] = useState<SignedIn | null>(null)
  // One of the admin's panels at a time: Members or Audit.
  const [panel, setPanel] = useState<'members' | 'audit' | null>(null)
  const toggle = (which: 'members' | 'audit') => setPanel(panel === which ? null : which)
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
      <span className="ellipsis" title={`${account.email} (${account.role})`}>
        {account.name} <span className="hint">{account.role}</span>
      </span>
      {account.role === 'admin' && (
        <>
          <button className="btn small" onClick={() => toggle('members')} data-testid="members-button">
            Members
          </button>
          <button className="btn small" onClick={() => toggle('audit')} data-testid="audit-button">
            Audit
          </button>
        </>
      )}
      {panel === 'members' && <MembersPanel />}
      {panel === 'audit' && <AuditPanel />}
      <button className="btn small" onClick={() => void signOut(account)}>
        Sign out
      </button>
    </span>
  )
}
