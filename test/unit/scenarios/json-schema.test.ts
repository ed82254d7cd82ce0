import { describe, expect, it } from 'vitest'
import { scenarioJsonSchema } from '../../../shared/scenario'
import { validateScenario } from '../../../shared/scenario'

describe('scenario JSON Schema for editors', () => {
  it('describes the whole format, rule presets and panel actions included, and refuses unknown fields', () => {
    const schema = scenarioJsonSchema()
    const text = JSON.stringify(schema)
    expect(schema.additionalProperties).toBe(false)
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'name', 'subscriptions', 'events']))
    for (const name of ['fail-first', 'nth-arrival', 'retry-now', 'rotate-secret', 'corrupt-signature', 'pandoktorek', 'tolerance_ms']) expect(text).toContain(`"${name}"`)
  })

  it('a scenario may name its schema with "$schema"', () => {
    const result = validateScenario({ $schema: '../docs/scenario.schema.json', version: 1, name: 'x', subscriptions: [{ id: 's', url: 'http://127.0.0.1:9/x', policy: 'github' }], events: [{ type: 't', payload: {} }] })
    expect(result.ok).toBe(true)
  })
})

describe('scenario JSON Schema: provider subscriptions and catalog events', () => {
  it('offers provider, api_version and overrides, and does not require a payload or a policy', () => {
    const schema = scenarioJsonSchema() as { properties: Record<string, { items: { properties: Record<string, { enum?: string[] }>; required?: string[] } }> }
    const subscription = schema.properties.subscriptions!.items
    const event = schema.properties.events!.items
    expect(subscription.properties.provider?.enum).toEqual(expect.arrayContaining(['github', 'stripe', 'shopify']))
    expect(Object.keys(subscription.properties)).toEqual(expect.arrayContaining(['api_version', 'scheme', 'policy']))
    expect(subscription.required ?? []).not.toContain('policy')
    expect(Object.keys(event.properties)).toContain('overrides')
    expect(event.required ?? []).not.toContain('payload')
  })
})
