// `hookloop serve [--port P] [--data DIR | --store STORE]`: browser mode. Starts the engine in its own process and
// serves the app on loopback; the first line printed is the URL to open (it carries this run's
// token). The same port answers the probes and metrics (engine/host/probe-routes.ts). SIGTERM or
// Ctrl-C drains the engine (answers in flight finished) and stops it; a second signal stops it at once.
import { fork } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HostReplyMessage, HostStartMessage } from '../engine/host-process'
import { createToken, DEFAULT_DRAIN_MS, oidcSettingsProblem, passwordProblem, type OidcSettings } from '../engine/host'
import type { Command } from './commands'
import { commandArgs, type OptionSpecs } from './command-args'
import { DATA_DIR_DEFAULT_HELP } from './data-dir-arg'
import { passwordOnCommandLine, STORE_OPTION, storeOrDataFolderArg } from './store-arg'
import { UsageError } from './usage-error'

const USAGE = `Usage: hookloop serve [--port P] [--host ADDR] [--data DIR | --store STORE] [--receiver-port P] [--tunnel-host URL] [--metrics-token T] [--drain-timeout S]
                      [--accounts [--admin EMAIL] [--public-url URL] [--trust-proxy]
                                  [--oidc-issuer URL --oidc-client-id ID [--oidc-client-secret-file FILE] [--oidc-name NAME] [--oidc-new-member-role ROLE]]]

Runs the engine and serves the Hookloop app in your browser, on this machine only; with
--accounts, to the people who sign in (docs/team.md, "Accounts"). With --store
postgres://… it runs on a team's PostgreSQL, beside other serve processes on the same database
(docs/team.md); the data key comes from $HOOKLOOP_SECRET_KEY_FILE or $HOOKLOOP_SECRET_KEY.
{options}
The first line printed is the address to open; without accounts it carries a secret token for
this run. With --accounts and no account yet, a one-time setup link follows (unless --admin).
GET /livez, /readyz and /metrics on the app's port answer without the token (docs/team.md,
"Running it"). SIGTERM or Ctrl-C drains: no new connection, the answers in flight are finished
and recorded, then it exits 0; a second signal stops it at once.`

/** The first admin's password: read from the environment only, never an option (argv is visible to every user). */
export const ADMIN_PASSWORD_ENV = 'HOOKLOOP_ADMIN_PASSWORD'
/** The identity provider's client secret: the environment or a file (--oidc-client-secret-file), never an option. */
export const OIDC_CLIENT_SECRET_ENV = 'HOOKLOOP_OIDC_CLIENT_SECRET'

const OPTIONS = {
  port: { type: 'port', short: 'p', default: 0, value: 'P', env: 'HOOKLOOP_PORT', help: 'port of the app, the probes and the metrics (0: any free port)' },
  host: { type: 'string', value: 'ADDR', env: 'HOOKLOOP_HOST', help: 'address of the app and the receiver: 127.0.0.1 (default), ::1 or localhost; any other (0.0.0.0 …) only with --accounts and --public-url' },
  accounts: { type: 'boolean', env: 'HOOKLOOP_ACCOUNTS', help: 'people sign in (email and password, roles viewer, editor, admin) instead of holding the run\'s token' },
  admin: { type: 'string', value: 'EMAIL', env: 'HOOKLOOP_ADMIN', help: `with --accounts and none yet: the first admin, with the password in $${ADMIN_PASSWORD_ENV}` },
  'public-url': { type: 'string', value: 'URL', env: 'HOOKLOOP_PUBLIC_URL', help: 'with --accounts: the address people open (https://hookloop.example.com); its Host and Origin are admitted' },
  'trust-proxy': { type: 'boolean', env: 'HOOKLOOP_TRUST_PROXY', help: 'with --accounts: believe X-Forwarded-Proto and X-Forwarded-For from the reverse proxy in front' },
  'oidc-issuer': { type: 'string', value: 'URL', env: 'HOOKLOOP_OIDC_ISSUER', help: 'with --accounts: people may also sign in through this OpenID Connect provider (docs/team.md)' },
  'oidc-client-id': { type: 'string', value: 'ID', env: 'HOOKLOOP_OIDC_CLIENT_ID', help: "with --oidc-issuer: Hookloop's client id at the provider" },
  'oidc-client-secret-file': {
    type: 'string',
    value: 'FILE',
    env: 'HOOKLOOP_OIDC_CLIENT_SECRET_FILE',
    help: `with --oidc-issuer: a file holding the client secret (or the secret itself in $${OIDC_CLIENT_SECRET_ENV})`,
  },
  'oidc-name': { type: 'string', value: 'NAME', env: 'HOOKLOOP_OIDC_NAME', help: 'with --oidc-issuer: the provider\'s name on the sign-in button, "Sign in with NAME" (default: the issuer\'s host)' },
  'oidc-new-member-role': {
    type: 'enum',
    values: ['viewer', 'editor'],
    value: 'ROLE',
    env: 'HOOKLOOP_OIDC_NEW_MEMBER_ROLE',
    help: 'with --oidc-issuer: a verified address with no account here joins with this role (default: refused; ask an admin for an invite)',
  },
  data: { type: 'string', value: 'DIR', help: `data folder (${DATA_DIR_DEFAULT_HELP})` },
  store: STORE_OPTION,
  'receiver-port': { type: 'port', value: 'P', env: 'HOOKLOOP_RECEIVER_PORT', help: 'port of the webhook receiver (default: any free port)' },
  'tunnel-host': { type: 'string', value: 'URL', env: 'HOOKLOOP_TUNNEL_HOST', help: 'open a public tunnel through this localtunnel server' },
  'metrics-token': { type: 'string', value: 'T', env: 'HOOKLOOP_METRICS_TOKEN', help: 'GET /metrics answers only to `Authorization: Bearer T` (default: open, like the probes)' },
  'drain-timeout': { type: 'number', min: 0, max: 3600, value: 'S', env: 'HOOKLOOP_DRAIN_TIMEOUT', default: DEFAULT_DRAIN_MS / 1000, help: 'on SIGTERM, seconds to wait for the requests in flight' },
} as const satisfies OptionSpecs

/** The loopback names `--host` takes, and the address each one listens on. */
const LOOPBACK: Record<string, string> = { '127.0.0.1': '127.0.0.1', localhost: '127.0.0.1', '::1': '::1', '[::1]': '::1' }

/**
 * The address to listen on. Beyond loopback only with accounts: without them the app's only lock
 * is this run's token (docs/team.md, "Running it"); and only with the address people reach it by,
 * the one name besides loopback its Host and Origin checks admit (DNS rebinding).
 */
export function serveHost(given: string | undefined, from = '--host', accounts?: { publicUrl: string | undefined }): string {
  if (given === undefined) return '127.0.0.1'
  const address = LOOPBACK[given.toLowerCase()]
  if (address) return address
  if (!accounts) {
    throw new UsageError(
      `serve: ${from} ${given} refused without accounts: the run's token is the app's only lock, so it listens on loopback only (127.0.0.1, ::1, localhost); add --accounts (people sign in), or put an authenticating reverse proxy in front of it (docs/team.md, "Running it")`,
    )
  }
  if (!accounts.publicUrl) throw new UsageError(`serve: ${from} ${given} needs --public-url URL: the address people open, the only name besides loopback the app answers to`)
  return given
}

/** The --public-url: an http(s) origin, nothing after its host. */
function publicUrlArg(given: string | undefined): string | undefined {
  if (given === undefined) return undefined
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(`serve: --public-url must be an address such as https://hookloop.example.com, got "${given}"`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new UsageError(`serve: --public-url must be an http(s) origin with no path, such as https://hookloop.example.com, got "${given}"`)
  }
  return url.origin
}

/** The first admin from --admin and HOOKLOOP_ADMIN_PASSWORD: never a default password, never a short one. */
function adminArg(email: string | undefined, accounts: boolean): { email: string; password: string } | undefined {
  if (email === undefined) return undefined
  if (!accounts) throw new UsageError('serve: --admin makes the first account: it needs --accounts')
  const password = process.env[ADMIN_PASSWORD_ENV] ?? ''
  if (!password) throw new UsageError(`serve: --admin ${email} needs its password in $${ADMIN_PASSWORD_ENV} (there is no default password)`)
  const problem = passwordProblem(password)
  if (problem) throw new UsageError(`serve: $${ADMIN_PASSWORD_ENV} refused: ${problem}`)
  return { email, password }
}

/** The identity provider from the --oidc-* options, with the client secret from the environment or its file. */
function oidcArg(
  values: { 'oidc-issuer'?: string | undefined; 'oidc-client-id'?: string | undefined; 'oidc-client-secret-file'?: string | undefined; 'oidc-name'?: string | undefined; 'oidc-new-member-role'?: 'viewer' | 'editor' | undefined },
  accounts: boolean,
): OidcSettings | undefined {
  const issuer = values['oidc-issuer']
  if (issuer === undefined) {
    const stray = (['oidc-client-id', 'oidc-client-secret-file', 'oidc-name', 'oidc-new-member-role'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`serve: --${stray} is for signing in through an identity provider: add --oidc-issuer URL`)
    return undefined
  }
  if (!accounts) throw new UsageError('serve: --oidc-issuer is for a server with accounts: add --accounts')
  const file = values['oidc-client-secret-file']
  const fromEnv = process.env[OIDC_CLIENT_SECRET_ENV]
  if (file !== undefined && fromEnv) throw new UsageError(`serve: give the client secret in $${OIDC_CLIENT_SECRET_ENV} or --oidc-client-secret-file, not both`)
  let clientSecret = fromEnv ?? ''
  if (file !== undefined) {
    try {
      clientSecret = readFileSync(file, 'utf8').trim()
    } catch (error) {
      throw new UsageError(`serve: --oidc-client-secret-file ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
    }
  }
  const settings = {
    issuer,
    clientId: values['oidc-client-id'] ?? '',
    clientSecret,
    name: values['oidc-name']?.trim() || (URL.canParse(issuer) ? new URL(issuer).host : issuer),
    newMemberRole: values['oidc-new-member-role'] ?? null,
  }
  const problem = oidcSettingsProblem(settings)
  if (problem) throw new UsageError(`serve: the identity provider refused: ${problem} (--oidc-issuer, --oidc-client-id, $${OIDC_CLIENT_SECRET_ENV} or --oidc-client-secret-file)`)
  return settings
}

export async function serve(args: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const parsed = commandArgs('serve', USAGE, args, OPTIONS, false, out)
  if (!parsed) return 0
  const { port: appPort, 'receiver-port': receiverPort, 'metrics-token': metricsToken } = parsed.values
  const hostGiven = args.some((arg) => arg === '--host' || arg.startsWith('--host='))
  const withAccounts = parsed.values.accounts
  const publicUrl = publicUrlArg(parsed.values['public-url'])
  if (!withAccounts && (publicUrl || parsed.values['trust-proxy'])) throw new UsageError(`serve: --${publicUrl ? 'public-url' : 'trust-proxy'} is for a server with accounts: add --accounts`)
  const host = serveHost(parsed.values.host, hostGiven ? '--host' : '$HOOKLOOP_HOST', withAccounts ? { publicUrl } : undefined)
  const admin = adminArg(parsed.values.admin, withAccounts)
  const oidc = oidcArg(parsed.values, withAccounts)
  // This module may be bundled into out/main/ or a chunk folder below it.
  const here = dirname(fileURLToPath(import.meta.url))
  const mainDir = [here, dirname(here)].find((dir) => existsSync(join(dir, 'host.js'))) ?? here
  const staticDir = join(mainDir, '..', 'renderer')
  const hostScript = join(mainDir, 'host.js')
  if (!existsSync(join(staticDir, 'index.html')) || !existsSync(hostScript)) {
    err.write(`hookloop: the app is not built next to this command (looked in ${staticDir}); run \`npm run build\` first\n`)
    return 1
  }
  const store = storeOrDataFolderArg('serve', parsed.values)
  // Said at once, before anything can fail: the URL stays in this process's argv for as long as it runs.
  const warning = passwordOnCommandLine(parsed.values.store)
  if (warning) err.write(`hookloop: ${warning}\n`)
  const tunnelHost = parsed.values['tunnel-host']

  // Anything the engine prints goes to stderr: stdout's first line is the URL, for scripts.
  // Its own process group: a terminal's Ctrl-C reaches this process only, which drains the engine
  // with one signal (two would stop it at once). Should this process die, the engine sees its IPC
  // close and stops itself (host-process.ts).
  const child = fork(hostScript, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], detached: true })
  child.stdout?.pipe(err)
  const start: HostStartMessage = {
    type: 'start',
    drainMs: parsed.values['drain-timeout'] * 1000,
    options: {
      // A team's URL travels in this message, never in argv or the child's environment: `ps` shows no password.
      ...('url' in store ? { store: store.url } : { dataDir: store.dataDir }),
      port: appPort,
      host,
      ...(metricsToken ? { metricsToken } : {}),
      token: createToken(),
      staticDir,
      ...(receiverPort === undefined ? {} : { receiverPort }),
      ...(tunnelHost ? { tunnel: { host: tunnelHost } } : {}),
      // The client secret, like a team's URL, travels in this message, never in argv.
      ...(withAccounts ? { accounts: { ...(admin ? { admin } : {}), ...(publicUrl ? { publicUrl } : {}), trustProxy: parsed.values['trust-proxy'], ...(oidc ? { oidc } : {}) } } : {}),
    },
  }
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1))))
  const ready = new Promise<HostReplyMessage | null>((resolve) => {
    child.once('message', (message) => resolve(message as HostReplyMessage))
    void exited.then(() => resolve(null))
  })
  child.send(start)
  const reply = await ready
  if (!reply || reply.type === 'failed') {
    err.write(`hookloop: the engine did not start: ${reply?.message ?? 'its process exited'}\n`)
    child.kill('SIGTERM')
    await exited
    return 1
  }
  // Signals are handled before the lines are printed: a script that waits for them may stop us at
  // once, and its signal can arrive before this process runs its next statement.
  // The first signal drains the engine, a second stops it at once (host-process.ts).
  const stop = () => child.kill('SIGTERM')
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  out.write(`${reply.openUrl}\n`)
  if (withAccounts) {
    out.write(`Hookloop is running with accounts: open the address above and sign in.\n`)
    if (oidc) out.write(`Sign-in through ${oidc.name} is on: register ${publicUrl ?? new URL(reply.openUrl).origin}/auth/oidc/callback as the redirect URI at the provider.\n`)
    // The one place the setup link appears: it makes the first admin, once, within a day.
    if (reply.setupUrl) out.write(`No account yet: open this one-time link to create the first admin (good for 24 h): ${reply.setupUrl}\n`)
  } else out.write(`Hookloop is running: open the address above (it carries this run's access token).\n`)
  out.write(`Webhook receiver: ${reply.receiverUrl}/h/<endpoint>   ${'url' in store ? `store: ${store.where}` : `data: ${store.dataDir}`}   Ctrl-C to stop.\n`)
  const code = await exited
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return code
}

export const serveCommand: Command = (args) => serve(args)
