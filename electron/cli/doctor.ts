// `hookloop doctor [--data DIR] [--repair] [--json]`: the rows of a data folder that do not parse
// (an endpoint, rule or subscription the engine set aside as it loaded), each named with its table,
// id, field and what was expected; --repair resets each bad field to a default, or removes a rule
// (a rule has no default), and says exactly what it did.
import { createRowDoctor, describeBadRow, openDatabase, type BadRow, type RowRepair } from '../engine/store'
import { commandArgs, type OptionSpecs } from './command-args'
import type { Command } from './commands'
import { DATA_DIR_DEFAULT_HELP, existingStoreFile } from './data-dir-arg'

const USAGE = `Usage: hookloop doctor [--data DIR] [--repair] [--json]

Checks every endpoint, rule and subscription of a data folder, and its saved retention. A row
that does not parse is set aside when the app, \`hookloop serve\` or \`hookloop listen\` starts
(the rest works): this lists each one with its table, id, field and what the field should hold.
{options}
--repair resets a bad field to a default (an endpoint's settings, scheme, secrets or dedupe key;
a subscription's retry policy, headers, scheme or secret), or removes a rule whose definition does
not parse and a retention that does not (the default applies), and prints what it did to each row. With --json: {"dataDir", "badRows": [...], "repaired": [...]}.
Exit status: 0 nothing set aside (or all repaired), 1 rows are set aside, 2 bad usage or no data folder.`

const OPTIONS = {
  data: { type: 'string', value: 'DIR', help: `the data folder (${DATA_DIR_DEFAULT_HELP})` },
  repair: { type: 'boolean', help: 'repair every row set aside, and say what was done' },
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies OptionSpecs

function report(dataDir: string, bad: BadRow[], repaired: RowRepair[]): string {
  if (repaired.length > 0) {
    return [...repaired.map((r) => `repaired ${r.bad.table} row ${r.bad.id} (${JSON.stringify(r.bad.label)}): ${r.done}; it was: ${r.bad.field} is not ${r.bad.expected} (${r.bad.problem})`), `Nothing is set aside in ${dataDir} now.`].join('\n')
  }
  if (bad.length === 0) return `Nothing is set aside: every endpoint, rule and subscription in ${dataDir} parses.`
  return [
    `${bad.length} row${bad.length === 1 ? ' is' : 's are'} set aside in ${dataDir} (the rest works):`,
    ...bad.map((b) => `  ${describeBadRow(b)}`),
    'Run `hookloop doctor --repair` to reset each bad field to a default (a rule that does not parse is removed).',
  ].join('\n')
}

export const doctorCommand: Command = async (args) => {
  const parsed = commandArgs('doctor', USAGE, args, OPTIONS)
  if (!parsed) return 0
  const { dataDir, file } = existingStoreFile('doctor', parsed.values.data)
  const db = openDatabase({ file })
  try {
    const doctor = createRowDoctor(db)
    const repaired = parsed.values.repair ? doctor.repairAll(Date.now()) : []
    const bad = doctor.badRows()
    process.stdout.write(parsed.values.json ? JSON.stringify({ dataDir, badRows: bad, repaired }, null, 2) + '\n' : report(dataDir, bad, repaired) + '\n')
    return bad.length === 0 ? 0 : 1
  } finally {
    db.close()
  }
}
