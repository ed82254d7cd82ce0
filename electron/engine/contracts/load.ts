// A spec file or URL read into the one model the check and `contract add` use, whatever its format.
import { asyncApiSpec } from './asyncapi'
import type { ContractSpec } from './model'
import { openApiSpec } from './openapi'
import { SpecError } from './spec-error'
import { loadSpecSource, type LoadSpecOptions } from './spec-source'

export async function loadContract(spec: string, options: LoadSpecOptions = {}): Promise<ContractSpec> {
  const source = await loadSpecSource(spec, options)
  if (source.document.openapi !== undefined) return openApiSpec(source)
  if (source.document.asyncapi !== undefined) return asyncApiSpec(source)
  if (source.document.swagger !== undefined) throw new SpecError('Swagger 2.0 has no webhooks or callbacks: give an OpenAPI 3.x or AsyncAPI document', { file: spec, pointer: '/swagger' })
  throw new SpecError('neither an OpenAPI nor an AsyncAPI document (no top-level "openapi" or "asyncapi" field)', { file: spec, pointer: '' })
}
