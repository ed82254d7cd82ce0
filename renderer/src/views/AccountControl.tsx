// Who is signed in and their role, with Sign out (and an admin's Members, API tokens and Audit): shown only when the page is served with
// accounts (`hookloop serve --accounts`); the run's token and the Electron window have nobody.
// Beside them, for a member of several workspaces, the one the session looks at: switched here, and
// the page reloads into the other (docs/team.md, "Workspaces"). A member of one sees no switcher.
import { useEffect, useState } from 'react'
import type { WorkspaceView } from '../../../shared/contract'
import { run, useApp } from '../state'
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
  const client = useApp((s) => s.client)
  const [workspaces, setWorkspaces] = useState<{ workspaces: WorkspaceView[]; current: string } | null>(null)
  useEffect(() => {
    if (!account || !client) return
    let live = true
    void run('Workspaces', (c) => c.call('workspace.list', {})).then((found) => live && found && setWorkspaces(found))
    return () => {
      live = false
    }
  }, [account, client])
  if (!account) return null
  return (
    <span className="row" data-testid="signed-in" style={{ flexWrap: 'nowrap', gap: 6, position: 'relative' }}>
      {workspaces && workspaces.workspaces.length > 1 && (
        <select
          aria-label="Workspace"
          data-testid="workspace"
          title={`The workspace you are in; signed in as ${account.email} (${account.role})`}
          className="input small workspace-switch"
          value={workspaces.current}
          onChange={(e) => void run('Workspace', (c) => c.call('workspace.switch', { id: e.target.value })).then((moved) => moved && window.location.reload())}
        >
          {workspaces.workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      )}
      {/* With the switcher beside it, the name gives it room (its tooltip holds it whole), and on a top bar narrower than 1600 px it gives way to the role alone: the switcher's tooltip names who is signed in. */}
      <span className={`ellipsis account-name${workspaces && workspaces.workspaces.length > 1 ? ' beside-switch' : ''}`} title={`${account.email} (${account.role})`}>
        <span className="account-who">{account.name}</span> <span className="hint">{account.role}</span>
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
