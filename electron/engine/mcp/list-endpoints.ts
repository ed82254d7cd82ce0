// list_endpoints: the endpoints of the data folder as the app's endpoint list shows them, with
// their rules explained; secrets only as hints (the app's own "whse…3f9a").
import { defineTool } from './context'

export const listEndpoints = defineTool({
  name: 'list_endpoints',
  title: 'List endpoints',
  description:
    "The receiving endpoints of the Hookloop data folder: id, slug, name, local URL (at the app's or `hookloop listen`'s receiver), signature scheme, secret hints, dedupe key, forward targets, and the fault rules on each (id, enabled, what it does).",
  changes: false,
  input: {},
  async run(ctx) {
    const [rules, endpoints, receiverUrl] = await Promise.all([ctx.source.rules(), ctx.source.endpoints(), ctx.source.receiverUrl()])
    return {
      dataDir: ctx.source.where,
      receiverUrl,
      endpoints: endpoints.map((e) => ({
        id: e.id,
        slug: e.slug,
        name: e.name,
        url: e.localUrl,
        scheme: e.scheme,
        secretHints: e.secretHints,
        dedupe: e.dedupe,
        forwardTo: e.forwardTo,
        rules: rules
          .filter((r) => r.endpointId === e.id)
          .map((r) => ({ id: r.id, name: r.name, enabled: r.enabled, explain: r.explain })),
      })),
    }
  },
})
