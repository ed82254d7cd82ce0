#!/usr/bin/env node
// The script of Hookloop's GitHub Action (action.yml): runs `hookloop run` on the scenario path
// with JUnit XML and a JSON report, writes a Markdown job summary from the report (✓ / ✗ per
// expectation, the JSON path of each that failed, the run's figures) to $GITHUB_STEP_SUMMARY, sets
// the step's outputs, and exits with hookloop's own status: 0 every expectation holds, 1 one fails,
// 2 a scenario is invalid. A plain Node script with no dependencies: the runner calls it the way
// GitHub calls any action, through environment variables.
//
//   INPUT_PATH     scenario file or folder, relative to GITHUB_WORKSPACE (required)
//   INPUT_ARGS     more arguments for `hookloop run` (quoted words kept together)
//   INPUT_JUNIT    where the JUnit XML goes (default hookloop-junit.xml)
//   INPUT_REPORT   where the JSON report goes (default hookloop-report.json)
//   INPUT_VERSION  where `hookloop` comes from: "repository" (the default) is the action's own
//                  checkout, built there by action.yml's build step; an npm version or "none" is
//                  the `hookloop` on PATH (npm installed it globally, or the job did)
//   INPUT_PACKAGE  "hookloop" (the default); anything else (a tarball) was installed by npm: PATH
//   HOOKLOOP_BIN   the command that is `hookloop`, whatever INPUT_VERSION says
import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The checkout this script is in: the action's own folder on a runner (github.action_path). */
const ACTION_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')

const env = process.env
const workspace = env.GITHUB_WORKSPACE || process.cwd()
const input = (name, fallback = '') => (env[`INPUT_${name}`] ?? '').trim() || fallback
const inWorkspace = (path) => (isAbsolute(path) ? path : resolve(workspace, path))

/** INPUT_ARGS as words: spaces separate, single or double quotes keep a word together. */
function splitArgs(text) {
  const words = []
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g
  for (const match of text.matchAll(pattern)) words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3]))
  return words
}

const cell = (value) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? ''
  const short = text.length > 120 ? `${text.slice(0, 117)}…` : text
  return short.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}
const ms = (n) => (n >= 3_600_000 ? `${(n / 3_600_000).toFixed(1)} h` : n >= 60_000 ? `${(n / 60_000).toFixed(1)} min` : n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`)

/** The figures of one report, in one line. */
function figures(report) {
  const attempts = report.deliveries.reduce((sum, d) => sum + d.attempts.length, 0)
  const requests = report.endpoints.reduce((sum, e) => sum + e.requests, 0)
  const duplicates = report.endpoints.reduce((sum, e) => sum + e.duplicates_flagged, 0)
  const passed = report.expectations.filter((e) => e.ok).length
  return [
    `${report.deliveries.length} deliver${report.deliveries.length === 1 ? 'y' : 'ies'}`,
    `${attempts} attempt${attempts === 1 ? '' : 's'}`,
    `${requests} request${requests === 1 ? '' : 's'} received`,
    `${duplicates} duplicate${duplicates === 1 ? '' : 's'} flagged`,
    `${passed}/${report.expectations.length} expectations hold`,
    `${ms(report.clock_ms)} on the ${report.clock.mode} clock`,
    `${ms(report.wall_ms)} wall`,
  ].join(' · ')
}

function scenarioSection(file, entry) {
  const name = basename(file ?? 'scenario')
  if (entry.result === 'invalid') {
    return [`### ✗ ${name}: not a valid scenario`, '', ...entry.problems.map((p) => `- ${cell(p)}`), '']
  }
  if (!entry.report) return [`### ✗ ${name}: could not run`, '', cell(entry.error ?? 'unknown error'), '']
  const report = entry.report
  const lines = [`### ${report.ok ? '✓' : '✗'} ${name}: ${cell(report.scenario)}`, '', figures(report), '']
  if (report.incomplete) lines.push(`**Did not settle:** ${cell(report.incomplete)}`, '')
  if (report.expectations.length) {
    lines.push('| | Expectation | JSON path | Expected | Actual |', '|---|---|---|---|---|')
    for (const e of report.expectations) lines.push(`| ${e.ok ? '✓' : '✗'} | ${cell(e.label)} | \`${cell(e.path)}\` | ${cell(e.expected)} | ${cell(e.actual)} |`)
    lines.push('')
  }
  const failing = report.expectations.filter((e) => !e.ok)
  if (failing.length) {
    lines.push('Failing:', '', ...failing.map((e) => `- \`${e.path}\`: ${cell(e.message)}`), '')
  }
  return lines
}

/** The report as `{ok, scenarios}` whether hookloop ran a folder or one file. */
function entriesOf(json, target) {
  if (Array.isArray(json.scenarios)) return json.scenarios
  return [{ file: json.file ?? target, result: json.ok ? 'passed' : 'failed', report: json }]
}

function summary(json, target, exitCode) {
  const entries = entriesOf(json, target)
  const count = (result) => entries.filter((e) => e.result === result).length
  const head = exitCode === 0 ? '✓' : '✗'
  const lines = [
    `## ${head} Hookloop: ${entries.length} scenario${entries.length === 1 ? '' : 's'}, ${count('passed')} passed, ${count('failed')} failed, ${count('invalid')} invalid`,
    '',
  ]
  for (const entry of entries) lines.push(...scenarioSection(entry.file, entry))
  return `${lines.join('\n')}\n`
}

/** The words of the `hookloop` command, or why there is none. */
function hookloopCommand() {
  if (env.HOOKLOOP_BIN) return splitArgs(env.HOOKLOOP_BIN)
  if (input('VERSION', 'repository') !== 'repository' || input('PACKAGE', 'hookloop') !== 'hookloop') return ['hookloop']
  // Hookloop from the action's own repository: no package registry involved.
  const cli = join(ACTION_DIR, 'out', 'main', 'cli.js')
  if (!existsSync(cli)) return `Hookloop is not built in ${ACTION_DIR} (${cli} is missing): action.yml's install step builds it there (npm ci, then npx electron-vite build)`
  return [process.execPath, join(ACTION_DIR, 'bin', 'hookloop.js')]
}

function main() {
  const target = input('PATH')
  if (!target) {
    process.stderr.write('hookloop action: the "path" input is empty: give the scenario file or folder to run\n')
    return 2
  }
  const junit = inWorkspace(input('JUNIT', 'hookloop-junit.xml'))
  const reportFile = inWorkspace(input('REPORT', 'hookloop-report.json'))
  const bin = hookloopCommand()
  if (typeof bin === 'string') {
    process.stderr.write(`hookloop action: ${bin}\n`)
    return 2
  }
  const [command, ...pre] = bin
  const args = [...pre, 'run', inWorkspace(target), '--junit', junit, '--report', reportFile, ...splitArgs(input('ARGS'))]
  process.stdout.write(`hookloop action: ${[command, ...args].join(' ')}\n`)
  const run = spawnSync(command, args, { cwd: workspace, stdio: 'inherit' })
  if (run.error) {
    process.stderr.write(`hookloop action: cannot start ${command}: ${run.error.message} (is Hookloop installed? set the action's "version" input)\n`)
    return 2
  }
  const exitCode = run.status ?? 1
  let markdown
  if (existsSync(reportFile)) {
    markdown = summary(JSON.parse(readFileSync(reportFile, 'utf8')), target, exitCode)
  } else {
    markdown = `## ✗ Hookloop: no report\n\n\`hookloop run ${target}\` exited with status ${exitCode} and wrote no report (see the step's log).\n`
  }
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown)
  else process.stdout.write(markdown)
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `junit=${junit}\nreport=${reportFile}\nexit-code=${exitCode}\n`)
  if (exitCode !== 0) process.stdout.write(`::error title=Hookloop::${exitCode === 2 ? 'a scenario is invalid' : 'an expectation failed'} (see the job summary)\n`)
  return exitCode
}

process.exitCode = main()
