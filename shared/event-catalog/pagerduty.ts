import type { CatalogEvent, FixtureContext } from './types'

// PagerDuty V3 webhooks: the payload is the part of `event` the envelope does not build —
// `agent`, `client` and `data` — as PagerDuty's V3 webhook examples show them: the incident
// events carry the incident (with its service, assignees, escalation policy, teams, priority and
// conference bridge as references), incident.annotated the note and its incident. Ids are
// PagerDuty's 7-character `P…` ids, fresh per send; references agree within an event.

const ACCOUNT = 'https://hookloop.pagerduty.com'
const API = 'https://api.pagerduty.com'

const pid = (ctx: FixtureContext) => ctx.id('P', 6).toUpperCase()

function reference(id: string, type: string, summary: string, path: string) {
  return { html_url: `${ACCOUNT}/${path}/${id}`, id, self: `${API}/${path}/${id}`, summary, type: `${type}_reference` }
}

function agent(ctx: FixtureContext) {
  return reference(pid(ctx), 'user', 'Ada Lovelace', 'users')
}

function incident(ctx: FixtureContext, status: 'triggered' | 'acknowledged' | 'resolved', priority = 'P2') {
  const id = pid(ctx)
  const responder = agent(ctx)
  return {
    id,
    type: 'incident',
    self: `${API}/incidents/${id}`,
    html_url: `${ACCOUNT}/incidents/${id}`,
    number: Number(ctx.digits(3)),
    status,
    incident_key: ctx.uuid().replace(/-/g, ''),
    created_at: ctx.iso(-300_000).replace(/\.\d+Z$/, 'Z'),
    title: 'Webhook deliveries failing with 503',
    service: reference(pid(ctx), 'service', 'Webhook receiver', 'services'),
    assignees: status === 'resolved' ? [] : [responder],
    escalation_policy: reference(pid(ctx), 'escalation_policy', 'Default', 'escalation_policies'),
    teams: [reference(pid(ctx), 'team', 'Integrations', 'teams')],
    priority: { ...reference(pid(ctx), 'priority', priority, 'account/incident_priorities'), html_url: `${ACCOUNT}/account/incident_priorities` },
    urgency: 'high',
    conference_bridge: { conference_number: '+1 555-0100,,987654321#', conference_url: 'https://meet.example.com/hookloop-incident' },
    resolve_reason: null,
  }
}

function incidentEvent(ctx: FixtureContext, status: 'triggered' | 'acknowledged' | 'resolved', priority?: string) {
  return { agent: status === 'triggered' ? null : agent(ctx), client: status === 'triggered' ? { name: 'Hookloop Monitoring' } : null, data: incident(ctx, status, priority) }
}

export const pagerdutyEvents: CatalogEvent[] = [
  // incident.triggered: the incident, triggered by an integration (no agent).
  { type: 'incident.triggered', description: 'An incident was opened.', payload: (ctx) => incidentEvent(ctx, 'triggered') },
  // incident.acknowledged: the incident, acknowledged by a user.
  { type: 'incident.acknowledged', description: 'A responder acknowledged an incident.', payload: (ctx) => incidentEvent(ctx, 'acknowledged') },
  // incident.resolved: the incident, resolved by a user.
  { type: 'incident.resolved', description: 'An incident was resolved.', payload: (ctx) => incidentEvent(ctx, 'resolved') },
  // incident.priority_updated: the incident with its new priority.
  { type: 'incident.priority_updated', description: 'An incident\u2019s priority changed.', payload: (ctx) => incidentEvent(ctx, 'acknowledged', 'P1') },
  // incident.annotated: the note (incident_note) and a reference to its incident.
  {
    type: 'incident.annotated',
    description: 'A note was added to an incident.',
    payload: (ctx) => {
      const id = pid(ctx)
      return { agent: agent(ctx), client: null, data: { incident: reference(id, 'incident', 'Webhook deliveries failing with 503', 'incidents'), id: pid(ctx), content: 'The receiver is back; replaying the failed deliveries.', trimmed: false, type: 'incident_note' } }
    },
  },
]
