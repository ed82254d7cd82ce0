// Engine errors for bad input become command errors with a code; a programming bug does not.
import { describe, expect, it } from 'vitest'
import { DefinitionError } from '../../../shared/receiver'
import { hostErrorOf } from '../../../electron/engine/host/host-error'
import { SenderError } from '../../../electron/engine/sender/sender-error'
import { ImportError } from '../../../electron/engine/exports'

describe('hostErrorOf', () => {
  it('gives validation and state errors their code', () => {
    expect(hostErrorOf(new SenderError('in_flight', 'delivery #3 is in flight'))).toMatchObject({ code: 'conflict', message: 'delivery #3 is in flight' })
    expect(hostErrorOf(new SenderError('invalid_event', 'no payload'))?.code).toBe('bad_request')
    expect(hostErrorOf(new DefinitionError('steps[0].status', 'a status is 100–599'))?.code).toBe('bad_request')
    expect(hostErrorOf(new ImportError('not a HAR file'))).toMatchObject({ code: 'bad_request', message: 'import: not a HAR file' })
  })

  it('leaves a bug (TypeError, RangeError, plain Error) to be answered as internal', () => {
    expect(hostErrorOf(new TypeError("Cannot read properties of undefined (reading 'slug')"))).toBeNull()
    expect(hostErrorOf(new RangeError('Invalid array length'))).toBeNull()
    expect(hostErrorOf(new Error('boom'))).toBeNull()
  })
})
