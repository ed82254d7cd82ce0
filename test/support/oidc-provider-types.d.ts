// The little of oidc-provider (v9, untyped) the tests use: a provider on a loopback server.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface ProviderAccount {
    accountId: string
    claims(): Record<string, unknown>
  }
  interface ProviderConfiguration {
    clients: Record<string, unknown>[]
    findAccount(ctx: unknown, id: string): Promise<ProviderAccount | undefined>
    claims?: Record<string, string[]>
    cookies?: { keys: string[] }
    features?: Record<string, unknown>
    pkce?: Record<string, unknown>
  }
  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
