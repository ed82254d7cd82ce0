import { resolve } from 'node:path'
import { REPO_ROOT } from '../../support/run-cli'

export { runCli, type CliResult } from '../../support/run-cli'
export const EXAMPLES = resolve(REPO_ROOT, 'examples')
