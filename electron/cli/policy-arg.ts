// --policy NAME|FILE for commands that judge against a retry policy: a preset name, or a JSON
// file holding a policy spec as subscriptions take it ({"preset": "stripe", "max_attempts": 5}).
import { existsSync, readFileSync } from 'node:fs'
import { ZodError } from 'zod'
import type { Policy } from '../../shared/sender'
import { POLICY_PRESET_IDS, isPolicyPresetId, resolvePolicy, type PolicySpec } from '../../shared/sender'
import { UsageError } from './usage-error'

export function policyArg(command: string, value: string): Policy {
  if (isPolicyPresetId(value)) return resolvePolicy(value)
  if (!existsSync(value)) throw new UsageError(`${command}: --policy "${value}" is neither a preset (${POLICY_PRESET_IDS.join(', ')}) nor a file`)
  let spec: unknown
  try {
    spec = JSON.parse(readFileSync(value, 'utf8'))
  } catch (error) {
    throw new UsageError(`${command}: --policy ${value} is not JSON: ${(error as Error).message}`)
  }
  try {
    return resolvePolicy(spec as PolicySpec)
  } catch (error) {
    if (error instanceof ZodError) {
      const first = error.issues[0]
      throw new UsageError(`${command}: --policy ${value}: ${first ? `${first.path.join('.') || '(root)'}: ${first.message}` : error.message}`)
    }
    throw error
  }
}
