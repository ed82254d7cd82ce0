// list_held: the requests a breakpoint holds now in any process on the data folder (the app,
// `hookloop serve`, `hookloop listen`) or on a served Hookloop, with their whole content and when
// their limit runs out.
import { defineTool } from './context'

export const listHeld = defineTool({
  name: 'list_held',
  title: 'List held requests',
  description: 'The requests held at a breakpoint right now (by the app, `hookloop serve` or `hookloop listen` on this data folder): method, path, headers, body, what the endpoint\'s rules would answer, when the hold\'s limit runs out and what happens then. release_held, answer_held and drop_held act on them.',
  changes: false,
  input: {},
  async run(ctx) {
    return { held: await ctx.source.heldRequests(), now: Date.now() }
  },
})
