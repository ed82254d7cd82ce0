// A spec file or URL read into the one model the check and `contract add` use, whatever its format.
import { createHash } from 'node:crypto'
import type { ContractSpec } from './model'
import { SpecError } from './spec-error'
import { loadSpecSource, type LoadSpecOptions } from './spec-source'

export async function loadContract(spec: string, options: LoadSpecOptions = {}): Promise<ContractSpec> {
  const source = await loadSpecSource(spec, options)
  // The document with every referenced one brought in: a change to any of them changes the digest.
  const digest = createHash('sha256').update(JSON.stringify(source.document)).digest('hex')
  // Each parser is loaded only for its own format: AsyncAPI's brings a whole linter with it.
  if (source.document.openapi !== undefined) return { ...(await (await import('./openapi')).openApiSpec(source)), digest }
  if (source.document.asyncapi !== undefined) return { ...(await (await import('./asyncapi')).asyncApiSpec(source)), digest }
  if (source.document.swagger !== undefined) throw new SpecError('Swagger 2.0 has no webhooks or callbacks: give an OpenAPI 3.x or AsyncAPI document', { file: spec, pointer: '/swagger' })
  throw new SpecError('neither an OpenAPI nor an AsyncAPI document (no top-level "openapi" or "asyncapi" field)', { file: spec, pointer: '' })
}
