// The schema of an endpoint made from a contract (`hookloop contract add`): its spec read once and
// kept, the operation's JSON messages given to the receiver's schema judge. A spec file is looked
// at (its size and time) before each verdict and read again only when it changed; a spec whose
// digest is no longer the one `contract add` saw, a spec gone, or an operation no longer in it is
// a "no schema" verdict saying so, never a crash.
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { EndpointContract } from '../../../shared/receiver'
import type { ContractSchemas, GivenSchema, NoGivenSchema } from '../payload-schemas'
import { isJsonType } from './check'
import { loadContract } from './load'
import type { ContractSpec } from './model'
import { isHttpUrl } from './spec-source'

interface SpecRead {
  /** The file's size and modification time when it was read ("" for a URL: read once). */
  mark: string
  spec: ContractSpec | { error: string }
}

/** "/specs/shop.yaml" → "shop.yaml"; a URL stays whole. */
const documentName = (spec: string) => (isHttpUrl(spec) ? spec : basename(spec))

const RUN_AGAIN = 'run `hookloop contract add` again to judge against it'

/** The specs of contract endpoints, each read once and kept: the schema verdicts and the send form's events share them. */
export interface SpecReader {
  /** The spec as it is now, or why it cannot be read. */
  specOf(contract: EndpointContract): Promise<ContractSpec | NoGivenSchema>
}

export function createSpecReader(): SpecReader {
  const reads = new Map<string, Promise<SpecRead>>()

  async function specOf(contract: EndpointContract): Promise<ContractSpec | NoGivenSchema> {
    let mark = ''
    if (!isHttpUrl(contract.spec)) {
      try {
        const file = await stat(contract.spec)
        mark = `${file.size}:${file.mtimeMs}`
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error)
        return { none: `the spec ${contract.spec} this endpoint was made from cannot be read (${code}): put it back, or ${RUN_AGAIN}` }
      }
    }
    const key = `${contract.allowRemoteRefs ? 'remote' : 'local'}\u0000${contract.spec}`
    let read = reads.get(key)
    if (!read || (await read).mark !== mark) {
      read = loadContract(contract.spec, { allowRemoteRefs: contract.allowRemoteRefs ?? false }).then(
        (spec) => ({ mark, spec }),
        (error: unknown) => ({ mark, spec: { error: (error as Error).message } }),
      )
      reads.set(key, read)
    }
    const { spec } = await read
    return 'error' in spec ? { none: `the spec this endpoint was made from does not read now: ${spec.error}` } : spec
  }
  return { specOf }
}

export function createContractSchemas(specs: SpecReader = createSpecReader()): ContractSchemas {
  return {
    async given(contract): Promise<GivenSchema | NoGivenSchema> {
      const spec = await specs.specOf(contract)
      if ('none' in spec) return { ...spec, schema: contract.operation }
      // As a provider's verdict names its source and the document in it: the spec, and its file or URL.
      const at = { source: `${spec.title} ${spec.version} (${spec.format})`, version: documentName(contract.spec), schema: contract.operation }
      if (contract.digest !== undefined && contract.digest !== spec.digest) return { none: `the spec ${contract.spec} changed since this endpoint was made from it: ${RUN_AGAIN}`, ...at }
      const operation = spec.operations.find((o) => o.name === contract.operation)
      if (!operation) return { none: `the spec no longer declares the operation ${contract.operation}: ${RUN_AGAIN}`, ...at }
      const messages = operation.messages.flatMap((m) => (m.schema && isJsonType(m.contentType) ? [{ eventType: m.eventType, schema: m.schema }] : []))
      if (messages.length === 0) {
        const other = operation.messages.find((m) => !isJsonType(m.contentType))
        return { none: other ? `the spec's body is ${other.contentType}; Hookloop checks JSON bodies only` : `the spec gives no body schema for ${operation.name}`, ...at }
      }
      return { key: `${spec.digest}\u0000${operation.name}`, ...at, operation: operation.name, dialect: spec.dialect, nullableKeyword: spec.nullableKeyword, messages }
    },
  }
}
