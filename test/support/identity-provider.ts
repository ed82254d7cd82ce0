// A real OpenID Connect provider for tests: panva's oidc-provider on a loopback port, its dev
// interactions (a login form that takes any password, a consent form) and the people it knows.
// It listens first and is configured later: a relying party's redirect URIs are known only once
// it has started, and its discovery is read only at its first sign-in.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import Provider from 'oidc-provider'

export interface ProviderPerson {
  email: string
  email_verified: boolean
  name: string
}

export interface IdentityProvider {
  issuer: string
  /** Starts answering as the provider, with one client registered for these redirect URIs. */
  open(client: { clientId: string; clientSecret: string; redirectUris: string[] }): void
  close(): Promise<void>
}

/**
 * A provider on a free port knowing these people by their login. `hostname` `localhost` makes it
 * another site than a Hookloop on 127.0.0.1, as a company's provider is (cookies' SameSite).
 */
export async function startIdentityProvider(people: Record<string, ProviderPerson>, hostname: '127.0.0.1' | 'localhost' = '127.0.0.1'): Promise<IdentityProvider> {
  let answer: ((req: IncomingMessage, res: ServerResponse) => void) | null = null
  const server: Server = createServer((req, res) => (answer ? answer(req, res) : res.writeHead(503).end()))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const issuer = `http://${hostname}:${(server.address() as { port: number }).port}`
  return {
    issuer,
    open(client) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: client.redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
        async findAccount(_ctx, id) {
          const person = people[id]
          return person ? { accountId: id, claims: () => ({ sub: id, ...person }) } : undefined
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['a test cookie key of the provider'] },
      })
      answer = provider.callback()
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}
