import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { ConnectionState } from '../../../electron/engine/receiver/connection'

// A connection makes its signals only when asked for; one asked for late must still say what
// happened before (a request that starts waiting after its caller left must not wait).
function connection() {
  let cleared = 0
  const state = new ConnectionState(new Socket(), undefined, () => cleared++)
  return { state, cleared: () => cleared }
}

describe('receiver connection', () => {
  it('aborts a signal made before the close, once, with the reason', () => {
    const { state } = connection()
    const signal = state.signal
    let aborts = 0
    signal.addEventListener('abort', () => aborts++)
    expect(state.closed).toBe(false)
    state.close('the connection closed')
    state.close('the receiver is closing')
    expect(aborts).toBe(1)
    expect(state.closed).toBe(true)
    expect((signal.reason as Error).message).toBe('the connection closed')
  })

  it('gives an already aborted signal when asked for after the close', () => {
    const { state } = connection()
    state.close('the receiver is closing')
    expect(state.signal.aborted).toBe(true)
    expect((state.signal.reason as Error).message).toBe('the receiver is closing')
    expect(state.waitEnds.aborted).toBe(true)
    expect(state.peerHasEnded).toBe(true)
  })

  it('ends waits but not the connection when the client half-closes', () => {
    const { state } = connection()
    const waits = state.waitEnds
    state.halfClosed()
    expect(waits.aborted).toBe(true)
    expect(state.waitsEnded).toBe(true)
    expect(state.peerHasEnded).toBe(true)
    expect(state.closed).toBe(false)
    expect(state.signal.aborted).toBe(false)
    state.close('the connection closed')
    expect(state.signal.aborted).toBe(true)
    // The wait ended at the half-close, and says so.
    expect((waits.reason as Error).message).toBe('the client half-closed the connection')
  })

  it('stops the request deadline through the server when the request is received', () => {
    const { state, cleared } = connection()
    state.received()
    expect(cleared()).toBe(1)
  })
})
