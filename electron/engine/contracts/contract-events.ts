// The event types a contract endpoint's spec declares, each with an example payload (the spec's own
// example, else one made from the schema: examples.ts), for the send form's choices. Every
// operation of the spec is offered, the endpoint's own first: a sender of that spec may deliver
// any of them.
import type { EndpointContract } from '../../../shared/receiver'
import type { ContractEventView, EndpointContractView } from '../../../shared/contract'
import { exampleOf } from './examples'
import type { SpecReader } from './spec-schemas'

export type ContractEvents = (contract: EndpointContract) => Promise<EndpointContractView>

export function createContractEvents(specs: SpecReader): ContractEvents {
  return async (contract) => {
    const base = { spec: contract.spec, operation: contract.operation }
    const spec = await specs.specOf(contract)
    if ('none' in spec) return { ...base, title: null, events: [], problem: spec.none }
    const operations = [...spec.operations].sort((a, b) => Number(b.name === contract.operation) - Number(a.name === contract.operation))
    const events: ContractEventView[] = []
    const seen = new Set<string>()
    for (const operation of operations) {
      for (const message of operation.messages) {
        if (seen.has(message.eventType)) continue
        seen.add(message.eventType)
        const example = exampleOf(message)
        events.push({ eventType: message.eventType, operation: operation.name, payload: JSON.stringify(example.body ?? {}, null, 2), from: example.from })
      }
    }
    const changed = contract.digest !== undefined && contract.digest !== spec.digest
    return { ...base, title: `${spec.title} ${spec.version}`, events, problem: changed ? `the spec ${contract.spec} changed since this endpoint was made from it` : null }
  }
}
