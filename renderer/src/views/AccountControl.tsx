// Who is signed in and their role, with Sign out (and an admin's Members): shown only when the page is served with
// accounts (`hookloop serve --accounts`); the run's token and the Electron window have nobody.
import { useEffect, useState } from 'react'
import { signedIn, signOut, type SignedIn } from '../transport/account'
import { MembersPanel } from './MembersPanel'

export function AccountControl() {
  const [account, setAccount] = useState<SignedIn | null>(null)
  const [members, setMembers] = useState(false)
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
        <button className="btn small" onClick={() => setMembers(!members)} data-testid="members-button">
          Members
        </button>
      )}
      {members && <MembersPanel />}
      <button className="btn small" onClick={() => void signOut(account)}>
        Sign out
      </button>
    </span>
  )
}
