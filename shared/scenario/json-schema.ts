// The scenario format as a JSON Schema, for editors: with `"$schema": "…/scenario.schema.json"` in
// a scenario file, VS Code and others complete field names and flag mistakes while typing.
// Generated on demand (`hookloop run --schema`) from the same zod schema `hookloop run` checks
// with, so the two cannot disagree.
import { z } from 'zod'
import { scenarioSchema } from './schema'
import { ruleEntrySchema } from './parts'
import { ruleSchema } from '../receiver'
import { presetSchema } from '../receiver'

type JsonSchema = Record<string, unknown>

function part(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema
  return rest
}

export function scenarioJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(scenarioSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      // A rule entry is checked by the receiver's own code (full rule or preset); describe both.
      if (ctx.zodSchema === ruleEntrySchema) {
        for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[key]
        Object.assign(ctx.jsonSchema, { anyOf: [part(ruleSchema), part(presetSchema)] })
      }
    },
  }) as JsonSchema
  return { ...schema, title: 'Hookloop scenario', description: 'A Hookloop scenario file: run it with `hookloop run FILE`. See docs/scenarios.md.' }
}
