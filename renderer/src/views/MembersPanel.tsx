// An admin's members (a server with accounts): who they are, their role (changed in place), an
// account disabled or enabled again, and an invite with a role, whose one-time link is shown here
// once, to copy and send to the new member. Below them, a new workspace, its admin this admin: the
// page reloads into it (docs/team.md, "Workspaces").
import { useEffect, useState } from 'react'
import { ROLES, type MemberView, type Role } from '../../../shared/contract'
import { run, toast } from '../state'

export function MembersPanel() {
  const [members, setMembers] = useState<MemberView[]>([])
  const [role, setRole] = useState<Role>('viewer')
  const [invite, setInvite] = useState<string | null>(null)
  const [workspaceName, setWorkspaceName] = useState('')
  const makeWorkspace = () =>
    void run('New workspace', async (c) => {
      const made = await c.call('workspace.create', { name: workspaceName })
      await c.call('workspace.switch', { id: made.id })
      return made
    }).then((made) => made && window.location.reload())
  const reload = () => void run('Members', (c) => c.call('member.list', {})).then((res) => res && setMembers(res.members))
  useEffect(reload, [])
  const change = (what: string, action: Promise<unknown>) => void action.then((done) => done !== undefined && reload()).catch((e: unknown) => toast('error', `${what}: ${String(e)}`))
  return (
    <div className="card" data-testid="members" style={{ position: 'absolute', top: 34, right: 0, zIndex: 30, minWidth: 520 }}>
      <div className="card-body">
        <h3>Members</h3>
        {members.map((m) => (
          <div key={m.id} className="row" data-testid="member" data-email={m.email} style={{ flexWrap: 'nowrap' }}>
            <span className="ellipsis" style={{ flex: 1 }} title={m.email}>
              {m.name} <span className="hint">{m.email}</span>
            </span>
            <select value={m.role} aria-label={`${m.email}'s role`} onChange={(e) => change('Role', run('Role', (c) => c.call('member.setRole', { id: m.id, role: e.target.value as Role })))}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
            <button className="btn small" onClick={() => change('Account', run('Account', (c) => c.call('member.setDisabled', { id: m.id, disabled: !m.disabled })))}>
              {m.disabled ? 'Enable' : 'Disable'}
            </button>
          </div>
        ))}
        <div className="row">
          <span>Invite a</span>
          <select value={role} aria-label="the new member's role" onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <button className="btn small" data-testid="invite" onClick={() => void run('Invite', (c) => c.call('member.invite', { role })).then((res) => res && setInvite(res.link))}>
            Make an invite link
          </button>
        </div>
        {invite && (
          <div className="row" style={{ flexWrap: 'nowrap' }}>
            <span className="mono ellipsis" style={{ flex: 1 }} data-testid="invite-link" title="Shown once: copy it now. It makes one account and expires in 24 h.">
              {invite}
            </span>
            <button className="btn small" onClick={() => void navigator.clipboard.writeText(invite).then(() => toast('ok', 'Copied the invite link'))}>
              Copy
            </button>
          </div>
        )}
        <div className="row" style={{ flexWrap: 'nowrap' }}>
          <input
            className="input"
            style={{ flex: 1 }}
            aria-label="the new workspace's name"
            data-testid="workspace-name"
            placeholder="New workspace: its name"
            maxLength={64}
            value={workspaceName}
            onChange={(e) => setWorkspaceName(e.target.value)}
          />
          <button className="btn small" data-testid="create-workspace" disabled={workspaceName.trim() === ''} onClick={makeWorkspace} title="You become its admin, and the page opens it">
            Make a workspace
          </button>
        </div>
      </div>
    </div>
  )
}
