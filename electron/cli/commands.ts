// The `hookloop` subcommands. Each module exports one function taking its own arguments and
// resolving to the process exit code; bad usage throws UsageError (exit 2).
export type Command = (args: string[]) => Promise<number>

export interface CommandEntry {
  summary: string
  load: () => Promise<Command>
}

// Loaded lazily so `hookloop sign` never pays for the receiver or the UI server.
export const COMMANDS: Record<string, CommandEntry> = {
  sign: { summary: 'print the signature headers for a body', load: () => import('./sign').then((m) => m.signCommand) },
  verify: { summary: 'verify a signed request and explain a failure', load: () => import('./verify').then((m) => m.verifyCommand) },
  listen: { summary: 'run a receiver: capture, verify, dedupe and answer by rules', load: () => import('./listen').then((m) => m.listenCommand) },
  run: { summary: 'run a scenario file headless and judge its expectations', load: () => import('./run').then((m) => m.runCommand) },
  conform: { summary: "judge a provider's deliveries to an endpoint against its retry policy", load: () => import('./conform').then((m) => m.conformCommand) },
  check: { summary: 'grade a webhook endpoint: signatures, duplicates, errors, redirects, latency', load: () => import('./check').then((m) => m.checkCommand) },
  requests: { summary: 'list captured requests (filters: endpoint, event id, status, since) with the ids other commands take', load: () => import('./requests').then((m) => m.requestsCommand) },
  deliveries: { summary: 'list deliveries (filters: endpoint, subscription, event id, status, since) with their ids', load: () => import('./deliveries').then((m) => m.deliveriesCommand) },
  export: { summary: 'export requests and deliveries as HAR 1.2, cURL or a case file', load: () => import('./export').then((m) => m.exportCommand) },
  audit: { summary: 'list who changed what, and when (rules, subscriptions, secrets, resends, members), newest first', load: () => import('./audit').then((m) => m.auditCommand) },
  prune: { summary: 'delete captured requests by age or size, or all of them; give the space back', load: () => import('./prune').then((m) => m.pruneCommand) },
  resend: { summary: 'send a captured request to your app again: as it was, re-signed, or with a broken signature', load: () => import('./resend').then((m) => m.resendCommand) },
  import: { summary: 'turn a HAR or case file into a scenario file (--as-scenario OUT.json)', load: () => import('./import').then((m) => m.importCommand) },
  replay: { summary: 'send the requests of a HAR or case file again, re-signed', load: () => import('./replay').then((m) => m.replayCommand) },
  trigger: { summary: 'deliver one catalog event exactly as a provider would, under its retry policy', load: () => import('./trigger').then((m) => m.triggerCommand) },
  contract: { summary: 'check captured traffic against an OpenAPI or AsyncAPI spec (drift: breaking, undocumented), or make its endpoints', load: () => import('./contract').then((m) => m.contractCommand) },
  doctor: { summary: 'list the endpoints, rules, subscriptions and settings set aside because they do not parse, and repair them', load: () => import('./doctor').then((m) => m.doctorCommand) },
  mcp: { summary: 'an MCP server on stdio for coding agents: read the timeline, explain signatures, trigger events, add fault rules', load: () => import('./mcp').then((m) => m.mcpCommand) },
  store: { summary: 'copy a whole store between a data folder and a team PostgreSQL, or show what a store holds', load: () => import('./store').then((m) => m.storeCommand) },
  token: { summary: "make, list and revoke the API tokens machines use against a served Hookloop (secret printed once)", load: () => import('./token').then((m) => m.tokenCommand) },
  workspace: { summary: "make and list a served Hookloop's workspaces, and add an existing account to one", load: () => import('./workspace').then((m) => m.workspaceCommand) },
  serve: { summary: 'open the app in your browser (engine + UI on 127.0.0.1)', load: () => import('./serve').then((m) => m.serveCommand) },
}
