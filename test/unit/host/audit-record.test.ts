// What the audit records of a command, without a store: which commands are changes (every one
// above viewer but an admin's reads), what each names, and its one-line summary.
import { describe, expect, it } from 'vitest'
import { actorOf, auditSummary, auditTarget, isAuditedCommand } from '../../../electron/engine/host/audit-record'
import { COMMAND_ROLES, type CommandName } from '../../../shared/contract'

describe('the audit of a command', () => {
  it('records every command above viewer but the admins’ reads, and no viewer’s', () => {
    const audited = (Object.keys(COMMAND_ROLES) as CommandName[]).filter(isAuditedCommand)
    expect(audited).toContain('rule.update')
    expect(audited).toContain('subscription.rotateSecret')
    expect(audited).toContain('request.resend')
    expect(audited).toContain('member.invite')
    expect(audited).not.toContain('member.list')
    expect(audited).not.toContain('audit.list')
    expect(audited.filter((name) => COMMAND_ROLES[name] === 'viewer')).toEqual([])
  })

  it('names what a command changed: its id, what it made, or the request or subscription it acted on', () => {
    expect(auditTarget('rule.update', { id: 'r-1', revision: 3, definition: {} }, {})).toEqual({ kind: 'rule', id: 'r-1' })
    expect(auditTarget('request.resend', { id: 7, mode: 'as-is' }, {})).toEqual({ kind: 'request', id: '7' })
    expect(auditTarget('endpoint.create', { name: 'Shop' }, { id: 'ep-1' })).toEqual({ kind: 'endpoint', id: 'ep-1' })
    expect(auditTarget('rule.addPreset', { endpointId: 'ep-1', preset: 'slow' }, { id: 'r-2' })).toEqual({ kind: 'rule', id: 'r-2' })
    expect(auditTarget('event.send', { subscriptionId: 's-1', eventType: 'order.paid' }, { eventIds: [], deliveryIds: [] })).toEqual({ kind: 'subscription', id: 's-1' })
    expect(auditTarget('history.clear', {}, { deleted: 3 })).toBeNull()
  })

  it('says a change in one line: the name given, what it names, a revision, a role', () => {
    expect(auditSummary('rule.update', { id: 'r-1', revision: 3 }, { kind: 'rule', id: 'r-1' })).toBe('rule.update · rule r-1 · from revision 3')
    expect(auditSummary('endpoint.create', { name: 'Shop' }, { kind: 'endpoint', id: 'ep-1' })).toBe('endpoint.create · "Shop" · endpoint ep-1')
    expect(auditSummary('member.setRole', { id: 'a-1', role: 'editor' }, { kind: 'member', id: 'a-1' })).toBe('member.setRole · member a-1 · role editor')
  })

  it('is local without an account, the account with one', () => {
    expect(actorOf({ account: null, via: 'app' })).toEqual({ actorId: null, actor: 'local', via: 'app' })
    expect(actorOf({ account: { id: 'a-1', email: 'ada@example.com', name: 'Ada', role: 'admin', workspaceId: 'default', createdAt: 0, disabled: false }, via: 'session' })).toEqual({ actorId: 'a-1', actor: 'ada@example.com', via: 'session' })
  })
})
