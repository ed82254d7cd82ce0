// `hookloop import FILE --as-scenario OUT.json [--name NAME]`: a HAR 1.2 or case file becomes a
// scenario file `hookloop run` plays in CI — the requests sent again in their order and timing,
// the endpoints and rules recreated, secrets as placeholders, what was observed as expectations.
// 0 written, 1 the file holds nothing that can be sent again, 2 bad usage or a broken file.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { ImportError } from '../engine/exports'
import { IncidentConversionError, scenarioFromIncidentText } from '../engine/scenarios'
import { commandArgs, type OptionSpecs } from './command-args'
import { stderrProgress } from './progress'
import type { Command } from './commands'
import { readFileOrUsage, UsageError } from './usage-error'

const USAGE = `Usage: hookloop import FILE --as-scenario OUT.json [options]

Turns a HAR 1.2 file or a Hookloop case file into a scenario file: the endpoints and their rules
(from the case file, or rules that answer as the file says they answered), every captured
request sent again in its order and timing with the event id it carried (the same id again is a
resend, flagged as a duplicate), our sender's deliveries under their own policy, and what was
observed (answers, duplicate numbers, signature verdicts, attempt times and decisions) as
expectations. What cannot be kept is a note (here and in the scenario's description).
Secrets are \${NAME} placeholders:
  hookloop run OUT.json --secret NAME=VALUE      (or set the environment variable NAME)
{options}
Progress goes to stderr while it is a terminal.
Exit status: 0 written, 1 nothing in the file can be sent again, 2 bad usage or a broken file.`

const OPTIONS = {
  'as-scenario': { type: 'string', value: 'OUT.json', help: 'where to write the scenario ("-" for standard output)' },
  name: { type: 'string', value: 'NAME', help: 'the scenario\'s name (default: "Incident from <file>")' },
  secret: { type: 'string', value: 'K', help: "the secret the captured requests were signed with: a HAR records no verdicts, so each request's signature is checked with it (as it was then) and the verdict expected; K never enters the scenario" },
  force: { type: 'boolean', help: 'overwrite OUT.json when it exists' },
  json: { type: 'boolean', help: 'print what was written as JSON ({"out", "events", "resends", "expectations", "secrets", "notes", "run"}; expectations counted as hookloop run counts them)' },
} as const satisfies OptionSpecs

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export const importCommand: Command = async (args) => {
  const parsed = commandArgs('import', USAGE, args, OPTIONS, 'FILE')
  if (!parsed) return 0
  const v = parsed.values
  const file = parsed.arg
  const out = v['as-scenario']
  if (out === undefined || out === '') throw new UsageError('import: say what to make of it: --as-scenario OUT.json (to send its requests again now, use hookloop replay)')
  if (out === '-' && v.json) throw new UsageError('import: --as-scenario - prints the scenario itself on stdout; --json reports a file written with --as-scenario OUT.json')
  if (v.secret === '') throw new UsageError('import: --secret is empty (give the secret the captured requests were signed with)')
  if (out !== '-' && existsSync(out) && !v.force) throw new UsageError(`import: ${out} already exists (give --force to overwrite it)`)
  const text = readFileOrUsage(file, (why) => `import: cannot read ${file} (${why})`).toString('utf8')
  let made
  const progress = stderrProgress('import')
  try {
    made = scenarioFromIncidentText(text, {
      source: basename(file),
      ...(v.name ? { name: v.name } : {}),
      ...(v.secret !== undefined ? { secret: v.secret } : {}),
      onProgress: (done, total) => progress.update(done, total, 'requests and deliveries converted'),
    })
  } catch (error) {
    progress.end()
    if (error instanceof ImportError) throw new UsageError(`import: ${file}: ${error.message}`)
    if (error instanceof IncidentConversionError) {
      process.stderr.write(`hookloop: ${file}: ${error.message}\n`)
      return 1
    }
    throw error
  }
  progress.end()
  for (const note of made.notes) process.stderr.write(`hookloop: note: ${note}\n`)
  if (out === '-') process.stdout.write(made.text)
  else {
    mkdirSync(dirname(resolve(out)), { recursive: true })
    writeFileSync(out, made.text)
    const run = `hookloop run ${out}${made.secrets.map((s) => ` --secret ${s}=…`).join('')}`
    if (v.json) process.stdout.write(JSON.stringify({ out: resolve(out), events: made.events, resends: made.resends, expectations: made.expectations, secrets: made.secrets, notes: made.notes, run }, null, 2) + '\n')
    else {
      // The words and counts `hookloop run` prints: its deliveries are these events and resends, its
      // "PASS: N of N expectations hold" this N.
      const resends = made.resends > 0 ? `, ${plural(made.resends, 'resend')}` : ''
      process.stdout.write(`wrote ${out}: ${plural(made.events, 'event')}${resends}, ${plural(made.expectations, 'expectation')}\nrun it: ${run}\n`)
    }
  }
  return 0
}
