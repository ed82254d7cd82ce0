// run_scenario: a scenario file (or its JSON given inline) run as `hookloop run` runs it: in a
// store of its own, so the data folder and a running app are untouched; the report as the answer.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { z } from 'zod'
import { formatProblem, parseScenarioWithSecrets } from '../../../shared/scenario'
import { runScenario } from '../scenarios'
import { createContractSchemas } from '../contracts'
import { defineTool, ToolError } from './context'

function scenarioText(path: string | undefined, scenario: unknown): { text: string; file: string | null } {
  if ((path === undefined) === (scenario === undefined)) throw new ToolError('give either path (a scenario file) or scenario (its JSON), not both and not neither')
  if (scenario !== undefined) return { text: typeof scenario === 'string' ? scenario : JSON.stringify(scenario), file: null }
  const file = resolve(path as string)
  try {
    return { text: readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), file }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ToolError(`cannot read the scenario ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? String(error))}`)
  }
}

export const runScenarioTool = defineTool({
  name: 'run_scenario',
  title: 'Run a scenario',
  description:
    'Run a Hookloop scenario (a file path, or the scenario JSON inline) headless, as `hookloop run` does, in a store of its own, and return its report: each expectation passed or failed with the JSON path that failed, the deliveries and requests, and the figures. ${NAME} secret placeholders are filled from the environment of `hookloop mcp`.',
  changes: false,
  input: {
    path: z.string().min(1).optional().describe('scenario file (relative paths from the folder hookloop mcp started in)'),
    scenario: z.union([z.string(), z.record(z.string(), z.unknown())]).optional().describe('the scenario JSON itself'),
  },
  async run(ctx, args) {
    const { text, file } = scenarioText(args.path, args.scenario)
    const parsed = parseScenarioWithSecrets(text, (name) => process.env[name])
    if (!parsed.ok) throw new ToolError(`${file ?? 'the scenario'} is not a valid scenario: ${parsed.problems.map(formatProblem).join('; ')}`)
    try {
      const report = await runScenario(parsed.scenario, { file, contractSchemas: createContractSchemas() })
      ctx.options.log(`run_scenario: ${file ?? 'inline scenario'}: ${report.ok ? 'passed' : 'failed'}`)
      return report
    } catch (error) {
      throw new ToolError(`the scenario could not run: ${error instanceof Error ? error.message : String(error)}`)
    }
  },
})
