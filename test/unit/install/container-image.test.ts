// The server image's files, read as the tools read them: the Dockerfile's stages, its runtime
// user, health check, ports and command; compose.yaml as YAML (js-yaml) with PostgreSQL 16 and one
// Hookloop; the workflow that builds and runs the image. No container runtime runs here: the
// image itself is built and probed by .github/workflows/image.yml.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8')

interface Stage {
  from: string
  name: string
  /** Instructions with their continuation lines joined, comments left out. */
  lines: string[]
}

function stagesOf(dockerfile: string): Stage[] {
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
  const stages: Stage[] = []
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line)
    if (from) stages.push({ from: from[1]!, name: from[2] ?? '', lines: [] })
    else stages.at(-1)?.lines.push(line)
  }
  return stages
}

describe('Dockerfile', () => {
  const text = read('Dockerfile')
  const stages = stagesOf(text)
  const [build, deps, runtime] = stages as [Stage, Stage, Stage]
  const runtimeLine = (word: string) => runtime.lines.filter((line) => line.toUpperCase().startsWith(`${word} `))

  it('has three stages on a slim Node 20: build, production-deps, runtime', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'production-deps', 'runtime'])
    expect(text).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m)
    for (const stage of stages) expect(stage.from).toBe('${NODE_IMAGE}')
  })

  it('builds without Electron’s binary, and installs production dependencies without install scripts', () => {
    expect(build.lines).toContain('ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1')
    expect(build.lines).toContain('RUN npx electron-vite build')
    const install = deps.lines.find((line) => line.startsWith('RUN npm ci'))
    expect(install).toContain('--omit=dev')
    expect(install).toContain('--ignore-scripts')
    expect(install).toContain('npm rebuild better-sqlite3')
  })

  it('runs only what serve needs, as the unprivileged node user, on the /data volume', () => {
    expect(runtimeLine('COPY')).toEqual([
      'COPY --from=production-deps /src/node_modules ./node_modules',
      'COPY --from=build /src/out/main ./out/main',
      'COPY --from=build /src/out/renderer ./out/renderer',
      'COPY package.json ./',
      'COPY bin ./bin',
    ])
    expect(runtime.lines.some((line) => /^RUN\s+npm\b/.test(line))).toBe(false)
    const user = runtime.lines.findIndex((line) => line.startsWith('USER '))
    expect(runtime.lines[user]).toBe('USER node')
    expect(user).toBeLessThan(runtime.lines.findIndex((line) => line.startsWith('CMD ')))
    expect(runtimeLine('VOLUME')).toEqual(['VOLUME ["/data"]'])
    expect(runtime.lines.join('\n')).toMatch(/HOOKLOOP_DATA=\/data/)
  })

  it('exposes the app and receiver ports serve is told, checks /livez and runs serve', () => {
    const env = runtime.lines.filter((line) => line.startsWith('ENV ')).join(' ')
    const port = /HOOKLOOP_PORT=(\d+)/.exec(env)?.[1]
    const receiverPort = /HOOKLOOP_RECEIVER_PORT=(\d+)/.exec(env)?.[1]
    expect(runtimeLine('EXPOSE')).toEqual([`EXPOSE ${port} ${receiverPort}`])
    const [healthcheck] = runtimeLine('HEALTHCHECK')
    expect(healthcheck).toContain('CMD ["node", "-e"')
    expect(healthcheck).toContain('http://127.0.0.1:${process.env.HOOKLOOP_PORT}/livez')
    expect(runtimeLine('STOPSIGNAL')).toEqual(['STOPSIGNAL SIGTERM'])
    expect(runtimeLine('CMD')).toEqual(['CMD ["node", "bin/hookloop.js", "serve"]'])
  })

  it('is built from the sources only (.dockerignore)', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
    for (const entry of ['node_modules', 'out', 'native', '.git', '*.db']) expect(ignored).toContain(entry)
  })
})

interface ComposeService {
  image?: string
  build?: string
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  volumes?: string[]
  ports?: string[]
  healthcheck?: { test: string[] }
  stop_grace_period?: string
}

describe('compose.yaml', () => {
  const compose = yaml.load(read('compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> }

  it('is PostgreSQL 16 and one Hookloop built from this folder, started once PostgreSQL is healthy', () => {
    expect(Object.keys(compose.services)).toEqual(['postgres', 'hookloop'])
    const { postgres, hookloop } = compose.services as { postgres: ComposeService; hookloop: ComposeService }
    expect(postgres.image).toMatch(/^postgres:16\b/)
    expect(postgres.healthcheck?.test.join(' ')).toContain('pg_isready')
    expect(hookloop.build).toBe('.')
    expect(hookloop.depends_on).toEqual({ postgres: { condition: 'service_healthy' } })
    expect(hookloop.volumes).toEqual(['hookloop-data:/data'])
    expect(Object.keys(compose.volumes)).toEqual(['postgres-data', 'hookloop-data'])
  })

  it('names the team store for serve, with no password written in the file, and publishes no port', () => {
    const { postgres, hookloop } = compose.services as { postgres: ComposeService; hookloop: ComposeService }
    expect(hookloop.environment?.HOOKLOOP_STORE).toMatch(/^postgres:\/\/hookloop:\$\{HOOKLOOP_DB_PASSWORD:\?[^}]*\}@postgres:5432\/hookloop$/)
    expect(postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{HOOKLOOP_DB_PASSWORD:\?/)
    expect(hookloop.environment?.HOOKLOOP_SECRET_KEY_FILE).toMatch(/^\/data\//)
    // Loopback only while there are no accounts: a published port would reach nothing.
    expect(hookloop.ports).toBeUndefined()
  })

  it('gives the drain its time before compose kills', () => {
    const { hookloop } = compose.services as { hookloop: ComposeService }
    const drain = Number(hookloop.environment?.HOOKLOOP_DRAIN_TIMEOUT)
    const grace = Number(/^(\d+)s$/.exec(hookloop.stop_grace_period ?? '')?.[1])
    expect(drain).toBeGreaterThan(0)
    expect(grace).toBeGreaterThan(drain)
  })
})

describe('.github/workflows/image.yml', () => {
  const workflow = yaml.load(read('.github/workflows/image.yml')) as { jobs: { image: { steps: { name?: string; run?: string }[] } } }
  const runs = workflow.jobs.image.steps.map((step) => step.run ?? '').join('\n')

  it('builds the image, runs it and reads /livez, /readyz and /metrics, then stops it with a drain', () => {
    expect(runs).toContain('docker build --tag hookloop:ci .')
    expect(runs).toContain('docker compose config --quiet')
    expect(runs).toContain('curl --silent --fail http://127.0.0.1:8080/livez')
    expect(runs).toContain('curl --silent --fail http://127.0.0.1:8080/readyz')
    expect(runs).toContain('curl --silent --fail --header "Authorization: Bearer $HOOKLOOP_METRICS_TOKEN" http://127.0.0.1:8080/metrics')
    expect(runs).toContain("docker inspect --format '{{.State.Health.Status}}' hookloop")
    expect(runs).toContain('docker stop --time 30 hookloop')
  })
})
