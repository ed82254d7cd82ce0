// The inspector's schema verdict: the captured body against the schema its provider publishes (or
// the spec its endpoint was made from, `hookloop contract add`), beside the signature's verdict. Invalid: each place it fails, with the JSON pointer, what the
// schema expects, what came and the schema's own words.
import type { SchemaVerdict } from '../../../shared/receiver'

export function SchemaVerdictView({ verdict }: { verdict: SchemaVerdict | null }) {
  if (!verdict) {
    return (
      <section className="verdict" data-testid="schema-verdict" data-state="unjudged">
        <div className="headline">Schema not checked</div>
        <div className="hint">Only requests at an endpoint made from a contract (held against its spec) or one that verifies a provider&apos;s scheme (held against that provider&apos;s schema) are checked, once answered.</div>
      </section>
    )
  }
  const of = verdict.schema && verdict.source ? `${verdict.schema} · ${verdict.source}${verdict.version ? ` · ${verdict.version}` : ''}` : null
  switch (verdict.verdict) {
    case 'no-schema':
      return (
        <section className="verdict" data-testid="schema-verdict" data-state="no-schema">
          <div className="headline">No schema to check against</div>
          <div className="hint">{verdict.reason}</div>
          {of && <div className="hint mono">{of}</div>}
        </section>
      )
    case 'valid':
      return (
        <section className="verdict valid" data-testid="schema-verdict" data-state="valid">
          <div className="headline">✓ Schema valid</div>
          {of && <div className="hint mono">{of}</div>}
        </section>
      )
    case 'invalid':
      return (
        <section className="verdict invalid" data-testid="schema-verdict" data-state="invalid">
          <div className="headline">✗ Schema invalid</div>
          {of && <div className="hint mono">{of}</div>}
          {verdict.problems.map((p, i) => (
            <dl className="kv" key={i} data-testid="schema-problem" data-pointer={p.pointer}>
              <dt>at</dt>
              <dd className="mono">{p.pointer || '/'}</dd>
              <dt>expected</dt>
              <dd>{p.expected}</dd>
              <dt>came</dt>
              <dd className="mono">{p.got}</dd>
              <dt>schema says</dt>
              <dd className="ellipsis" title={p.schemaSays}>
                {p.schemaSays}
              </dd>
            </dl>
          ))}
        </section>
      )
    default: {
      const never: never = verdict.verdict
      return never
    }
  }
}
