// The sender's contract picker: for a subscription delivering to an endpoint made from a spec, the
// spec's event types with their example payloads (the spec's own, else made from its schema),
// beside the provider catalog's picker.
import { useState } from 'react'
import { contractEventLabel, pickContractEvent, type ContractChoices } from '../lib/contract-events'

export function ContractEventPicker({ choices, onPick }: { choices: ContractChoices; onPick: (picked: { eventType: string; payload: string }) => void }) {
  const [eventType, setEventType] = useState('')
  const { contract, endpoint } = choices
  return (
    <label className="field" data-testid="contract-picker">
      From the contract {contract.title ?? contract.spec} (endpoint {endpoint.name})
      <select
        className="input mono"
        value={eventType}
        disabled={contract.events.length === 0}
        onChange={(e) => {
          setEventType(e.target.value)
          const picked = pickContractEvent(choices, e.target.value)
          if (picked) onPick(picked)
        }}
        data-testid="contract-event"
      >
        <option value="">{contract.events.length === 0 ? 'no event types to offer' : 'choose…'}</option>
        {contract.events.map((e) => (
          <option key={e.eventType} value={e.eventType}>
            {contractEventLabel(e)}
          </option>
        ))}
      </select>
      {contract.problem && <span className="badge warn" data-testid="contract-problem">{contract.problem}</span>}
    </label>
  )
}
