// An admin's API tokens (a server with accounts, docs/team.md "Tokens"): the tokens machines use
// (CI, scripts, `hookloop mcp`), each with its role, the first characters of its secret, when it
// was made and last used; a new one whose secret is shown here once, to copy; a token revoked
// after a confirmation.
import { Fragment, useEffect, useState } from 'react'
import { ROLES, type Role, type TokenView } from '../../../shared/contract'
import { formatTime } from '../lib/format'
import { run, toast } from '../state'

// To the minute: a last use is written at most once a minute.
const minute = (ms: number): string => formatTime(ms).slice(0, 16)

export function TokensPanel() {
  const [tokens, setTokens] = useState<TokenView[]>([])
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [made, setMade] = useState<{ token: TokenView; secret: string } | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const reload = () => void run('Tokens', (c) => c.call('token.list', {})).then((res) => res && setTokens(res.tokens))
  useEffect(reload, [])

  const create = async () => {
    setBusy(true)
    const res = await run('New token', (c) => c.call('token.create', { name: name.trim(), role }))
    setBusy(false)
    if (!res) return
    setMade(res)
    setName('')
    reload()
  }
  const revoke = async (token: TokenView) => {
    setConfirming(null)
    const res = await run('Revoke', (c) => c.call('token.revoke', { id: token.id }))
    if (res) toast('ok', `Revoked ${token.name}: it admits nobody now`)
    reload()
  }

  return (
    <div className="card tokens-panel" data-testid="tokens">
      <div className="card-body">
        <h3>API tokens</h3>
        <span className="hint">
          For machines: CI, scripts, <code>hookloop mcp</code>. Each is sent as <code>Authorization: Bearer hlk_…</code> and acts with its role.
        </span>
        {made && (
          <div className="token-secret" data-testid="token-secret-box">
            <strong>
              {made.token.name} ({made.token.role}): copy the token now. It will not be shown again.
            </strong>
            <div className="row" style={{ flexWrap: 'nowrap' }}>
              <code className="ellipsis" style={{ flex: 1 }} data-testid="token-secret">
                {made.secret}
              </code>
              <button className="btn small primary" onClick={() => void navigator.clipboard.writeText(made.secret).then(() => toast('ok', `Copied the token ${made.token.name}`))}>
                Copy
              </button>
              <button className="btn small" onClick={() => setMade(null)} data-testid="token-secret-done">
                Done
              </button>
            </div>
          </div>
        )}
        {tokens.length === 0 ? (
          <span className="hint" data-testid="no-tokens">
            No tokens yet.
          </span>
        ) : (
          <table className="table tokens-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th>Token</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <Fragment key={t.id}>
                  <tr data-testid="token" data-name={t.name} data-revoked={t.revokedAt !== null} className={t.revokedAt !== null ? 'revoked' : ''}>
                    <td title={t.id}>{t.name}</td>
                    <td>{t.role}</td>
                    <td className="mono">{t.prefix}…</td>
                    <td title={t.createdByEmail ? `by ${t.createdByEmail}` : 'on the server (hookloop token create)'}>{minute(t.createdAt)}</td>
                    <td>{t.lastUsedAt === null ? 'never' : minute(t.lastUsedAt)}</td>
                    <td className="token-action">
                      {t.revokedAt !== null ? (
                        <span className="badge bad" title={`revoked ${formatTime(t.revokedAt)}`}>
                          revoked {minute(t.revokedAt)}
                        </span>
                      ) : (
                        <button className={`btn small${confirming === t.id ? ' on' : ''}`} onClick={() => setConfirming(confirming === t.id ? null : t.id)} data-testid="token-revoke">
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                  {confirming === t.id && t.revokedAt === null && (
                    <tr className="token-confirm" data-testid="token-confirm">
                      <td colSpan={6}>
                        <span className="row" style={{ flexWrap: 'nowrap', justifyContent: 'flex-end' }}>
                          <span className="hint" style={{ flex: 1 }}>
                            Revoke {t.name}? Whatever uses it is refused within a second, on every server of this store.
                          </span>
                          <button className="btn small danger" onClick={() => void revoke(t)} data-testid="token-revoke-confirm">
                            Revoke
                          </button>
                          <button className="btn small" onClick={() => setConfirming(null)}>
                            Cancel
                          </button>
                        </span>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
        <form
          className="row"
          style={{ flexWrap: 'nowrap' }}
          onSubmit={(e) => {
            e.preventDefault()
            void create()
          }}
        >
          <input className="input" style={{ flex: 1 }} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="What uses it: CI on GitHub Actions" aria-label="the new token's name" data-testid="token-name" />
          <select className="input" value={role} aria-label="the new token's role" onChange={(e) => setRole(e.target.value as Role)} data-testid="token-role">
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <button className="btn small primary" type="submit" disabled={busy || name.trim() === ''} data-testid="token-create">
            Create token
          </button>
        </form>
      </div>
    </div>
  )
}
