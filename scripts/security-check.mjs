// `npm run security`: Electronegativity's offline checks over the Electron shell, the preload and
// the renderer. Fails (exit 1) on any HIGH or MEDIUM finding that is not in REVIEWED below, each
// of which names why it is accepted. The online check (Electron releases) is skipped: CI has no
// route to GitHub, and the Electron version is pinned in package.json.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ELECTRON_VERSION = JSON.parse(readFileSync('package.json', 'utf8')).devDependencies.electron.replace(/^[^\d]*/, '')

/** Findings that are review prompts, reviewed: check id + file → the reason it is fine. */
const REVIEWED = {
  'PRELOAD_JS_CHECK electron/main/index.ts':
    'the preload exposes named, typed functions only (shared/contract/bridge.ts); it runs sandboxed with contextIsolation, and main checks every IPC sender (electron/main/ipc.ts)',
}

// One run over the whole app, so global checks (navigation limits, permission handler, CSP) see
// the shell and the renderer together.
const inputs = ['app']
const dir = mkdtempSync(join(tmpdir(), 'hookloop-electronegativity-'))
for (const folder of ['electron', 'renderer', 'shared']) cpSync(folder, join(dir, 'app', folder), { recursive: true })
let failed = 0
let findings = 0
try {
  for (const input of inputs) {
    const out = join(dir, `${input}.csv`)
    const run = spawnSync(
      process.execPath,
      [join(process.cwd(), 'node_modules/@doyensec/electronegativity/dist/index.js'), '-i', join(dir, input), '-r', '-o', out, '-e', ELECTRON_VERSION, '-v', 'false', '-x', 'AvailableSecurityFixesGlobalCheck'],
      { encoding: 'utf8', timeout: 300_000 },
    )
    if (run.status !== 0) {
      console.error(`electronegativity failed on ${input}: ${run.stderr || run.stdout}`)
      process.exit(2)
    }
    const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1).filter(Boolean)
    for (const line of rows) {
      const cells = line.match(/("([^"]*)"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '')) ?? []
      const [issue, severity, confidence, file, location] = cells
      findings++
      const key = `${issue} ${file}`
      const serious = severity === 'HIGH' || severity === 'MEDIUM'
      const reviewed = REVIEWED[key]
      const verdict = !serious ? 'ok (low/informational)' : reviewed ? `reviewed: ${reviewed}` : 'FAIL'
      if (serious && !reviewed) failed++
      console.log(`${severity.padEnd(7)} ${confidence.padEnd(10)} ${issue} ${file}:${location} — ${verdict}`)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log(`${findings} finding(s), ${failed} unreviewed high/medium`)
process.exit(failed > 0 ? 1 : 0)
