// The least role of each command: a viewer reads, an editor changes rules, subscriptions, sends,
// resends, scenarios and simulations, an admin keeps retention and secrets.
import { describe, expect, it } from 'vitest'
import { COMMAND_ROLES, requestSchemas, roleAtLeast } from '../../../shared/contract'

describe('the command roles', () => {
  it('name a role for every command', () => {
    expect(Object.keys(COMMAND_ROLES).sort()).toEqual(Object.keys(requestSchemas).sort())
  })

  it('let a viewer read, an editor change, an admin keep', () => {
    expect(COMMAND_ROLES['timeline.page']).toBe('viewer')
    expect(COMMAND_ROLES['rule.update']).toBe('editor')
    expect(COMMAND_ROLES['event.send']).toBe('editor')
    expect(COMMAND_ROLES['request.resend']).toBe('editor')
    expect(COMMAND_ROLES['scenario.run']).toBe('editor')
    expect(COMMAND_ROLES['clock.set']).toBe('editor')
    expect(COMMAND_ROLES['history.setRetention']).toBe('admin')
    expect(COMMAND_ROLES['subscription.rotateSecret']).toBe('admin')
  })

  it('order the roles', () => {
    expect(roleAtLeast('admin', 'editor')).toBe(true)
    expect(roleAtLeast('editor', 'editor')).toBe(true)
    expect(roleAtLeast('viewer', 'editor')).toBe(false)
  })
})
