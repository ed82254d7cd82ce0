// list_held: the requests a breakpoint holds now in any process on the data folder (the app,
// `hookloop serve`, `hookloop listen`), with their whole content and when their limit runs out.
import { heldStore } from './held-asks'
import { defineTool } from './context'

export const listHeld = defineTool({
  name: 'list_held',
  title: 'List held requests',
  description: 'The requests held at a breakpoint right now (by the app, `hookloop serve` or `hookloop listen` on this data folder): method, path, headers, body, what the endpoint\'s rules would answer, when the hold\'s limit runs out and what happens then. release_held, answer_held and drop_held act on them.',
  changes: false,
  input: {},
  run(ctx) {
    const held = heldStore(ctx, 'list_held').list()
    return { held, now: Date.now() }
  },
})
