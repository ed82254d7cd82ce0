import { createNodeMiddleware, Webhooks } from '@octokit/webhooks'
import { serve } from '../support'
import type { Judge } from './types'

// GitHub's official library as its docs use it: a Webhooks instance with a handler for every
// event behind createNodeMiddleware, which checks X-GitHub-Event, X-GitHub-Delivery, the content
// type and X-Hub-Signature-256, and answers 200 once the handlers ran. GitHub signs no time.
const SECRET = 'It\u2019s a Secret to Everybody'
const PATH = '/api/github/webhooks'

export const githubJudge: Judge = {
  provider: 'github', library: '@octokit/webhooks 14', secret: SECRET,
  async start() {
    const accepted: string[] = []
    const deliveryIds: string[] = []
    const webhooks = new Webhooks({ secret: SECRET })
    webhooks.onAny(({ id, name, payload }) => {
      deliveryIds.push(id)
      accepted.push('action' in payload && payload.action ? `${name}.${String(payload.action)}` : name)
    })
    const consumer = await serve(createNodeMiddleware(webhooks, { path: PATH }), PATH)
    return { ...consumer, accepted, deliveryIds }
  },
}
