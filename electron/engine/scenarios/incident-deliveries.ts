// A delivery our sender made, as the incident file records it, turned into the scenario's
// subscription and its payload: the subscription from the file's setup (a secret of its own only
// when the file shows it had one, redacted headers left out), and the endpoint it goes to in the
// run — the setup's endpoint in a loop, or for a consumer's own URL an endpoint of ours that
// answers each attempt as that URL answered. Also the plan of an endpoint both halves share.
import { foreignSecretEndpoint, REDACTED } from '../../../shared/contract'
import { freshSecret } from '../../../shared/secrets'
import type { ScenarioInput } from '../../../shared/scenario'
import { defaultEventIdHeaderName, placeholder, placeholderName } from '../../../shared/scenario'
import { isSchemeId, type SchemeId } from '../../../shared/signatures'
import { utf8Text } from '../exports'
import type { Incident, IncidentDelivery } from '../exports'
import { localName } from '../recorder'
import type { IdLocation } from './incident-provider'

export type ArrivalExpectationInput = NonNullable<NonNullable<NonNullable<ScenarioInput['expect']>['endpoints']>[number]['arrivals']>[number]

/** An endpoint of the scenario as it is being written. */
export interface EndpointPlan {
  slug: string
  definition: Record<string, unknown> & { rules: unknown[] }
  scheme: SchemeId | null
  /** The header the event id is sent in (a header dedupe key's name, else the scheme's id header). */
  idHeader: string | null
  /** Where the file's requests to it carry their event id; null when no single field does. */
  idAt: IdLocation | null
  /** The provider its captured requests came from, when recognised (its label). */
  provider: string | null
  /** Rules written from the file's answers (it carried none). */
  synthesized: boolean
  replaySubscription: string | null
  arrivals: ArrivalExpectationInput[]
  requests: number
  /** Our own loop deliveries land here too: arrivals are not listed then. */
  loopTarget: boolean
  /** The signing secret as the file has it (REDACTED when redacted), to tell whether a subscription signed with another. */
  fileSecret: string | null
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)


export function jsonBody(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  const text = utf8Text(body)
  if (text === null || text.trim() === '') return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** A delivery's subscription (from the setup), its payload, and the endpoint it goes to in the run. */
export function deliveryPlan(
  d: IncidentDelivery,
  setup: Incident['setup'],
  endpoints: Map<string, EndpointPlan>,
  local: (def: Record<string, unknown>) => string,
  notes: string[],
  secretNames: Set<string>,
): { subscription: Record<string, unknown>; payload: unknown; idHeader: string | null; target: EndpointPlan; signsWithStandIn: boolean } | null {
  const def = setup?.subscriptions.find((s) => s.id === d.subscription)
  if (!def) {
    if (setup) notes.push(`${d.label}: its subscription is not in the file's setup; left out`)
    return null
  }
  if (d.attempts.length === 0) {
    notes.push(`${d.label} has no attempts yet; left out`)
    return null
  }
  const envelope = def.envelope === 'payload' ? 'payload' : 'event'
  const body = jsonBody(d.body)
  if (!body.ok) {
    notes.push(`${d.label}: its body is not JSON; left out`)
    return null
  }
  const payload = envelope === 'payload' ? body.value : isObject(body.value) && 'payload' in body.value ? body.value.payload : body.value
  const scheme = typeof def.scheme === 'string' && isSchemeId(def.scheme) ? def.scheme : 'standard-webhooks'
  const policyName = typeof def.policy === 'string' ? def.policy : isObject(def.policy) && typeof def.policy.name === 'string' ? def.policy.name : undefined
  const idHeader = typeof def.event_id_header === 'string' ? def.event_id_header : defaultEventIdHeaderName(scheme, policyName)
  const known = endpoints.get(String(def.endpoint ?? ''))
  let target = known
  if (!target) {
    // A consumer's own URL: in the run, an endpoint of ours answers each attempt as it answered.
    const slug = localName(`consumer-${String(def.name ?? 'target')}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-'), new Set(endpoints.keys())).slice(0, 63)
    target = {
      slug,
      definition: { slug, name: `answers as ${String(def.url ?? 'the target')} did`, scheme: null, secrets: [], dedupe: { type: 'header', name: idHeader }, rules: [] },
      scheme: null,
      idHeader,
      idAt: null,
      provider: null,
      synthesized: true,
      replaySubscription: null,
      arrivals: [],
      requests: 0,
      loopTarget: true,
      fileSecret: null,
    }
    endpoints.set(slug, target)
    notes.push(`${d.label} went to ${String(def.url ?? 'a URL')}; in the scenario endpoint ${slug} answers as it did`)
  }
  const headers = isObject(def.headers) ? Object.fromEntries(Object.entries(def.headers).filter(([, v]) => typeof v === 'string' && v !== '[redacted]')) : {}
  if (isObject(def.headers) && Object.keys(headers).length < Object.keys(def.headers).length) notes.push(`subscription ${String(def.name ?? def.id)}: redacted headers were left out`)
  const localId = local(def)
  // In a loop the subscription signs with the endpoint's secret unless the file shows it had another.
  const subSecret = Array.isArray(def.secrets) && typeof def.secrets[0] === 'string' ? def.secrets[0] : null
  let secrets: string[] = []
  if (known && foreignSecretEndpoint(subSecret) === known.slug) {
    // The file redacts both secrets but says they differed: a stand-in secret of the scheme's form,
    // known to no endpoint, makes the same mismatch. It is no one's secret, so it is written as is.
    secrets = [freshSecret(scheme)]
    notes.push(`subscription ${String(def.name ?? def.id)} signed with a secret endpoint ${known.slug} does not verify with (both redacted in the file): in the scenario it signs with a stand-in wrong secret, so its signatures fail as they did`)
  } else if (known && subSecret !== null && known.fileSecret !== null) {
    if (subSecret === REDACTED && known.fileSecret === REDACTED) notes.push(`subscription ${String(def.name ?? def.id)}: its secret is redacted and the file does not mark it as another than endpoint ${known.slug}'s, so in the scenario it signs with ${known.slug}'s`)
    else if (subSecret !== known.fileSecret) {
      const name = placeholderName(localId)
      secretNames.add(name)
      secrets = [placeholder(name)]
    }
  }
  const subscription: Record<string, unknown> = {
    id: localId,
    ...(secrets.length > 0 ? { secrets } : {}),
    name: def.name,
    endpoint: target.slug,
    scheme,
    policy: def.policy,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(typeof def.event_id_header === 'string' ? { event_id_header: def.event_id_header } : {}),
    ...(envelope === 'payload' ? { envelope } : {}),
  }
  return { subscription, payload, idHeader, target, signsWithStandIn: known !== undefined && foreignSecretEndpoint(subSecret) === known.slug }
}
