// The attempt link's value, made and checked with no store around it: what shapes parse, and
// that every field it binds changes the MAC.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { attemptLink, linkChecksOut, parseAttemptLink, type LinkedAttempt } from '../../../electron/engine/sender/attempt-link'

const key = randomBytes(32)
const attempt: LinkedAttempt = { id: 7, deliveryId: 3, eventId: 'evt_1' }
const body = Buffer.from('{"id":"evt_1"}')

describe('attempt link', () => {
  it('is <attempt id>.<22 base64url characters> and checks out for the attempt, key and body it was made for', () => {
    const value = attemptLink(key, attempt, body)
    expect(value).toMatch(/^7\.[A-Za-z0-9_-]{22}$/)
    const link = parseAttemptLink(value)
    expect(link?.attemptId).toBe(7)
    expect(linkChecksOut(key, link!, attempt, body)).toBe(true)
  })

  it('fails for another key, attempt, delivery, event or body', () => {
    const link = parseAttemptLink(attemptLink(key, attempt, body))!
    expect(linkChecksOut(randomBytes(32), link, attempt, body)).toBe(false)
    expect(linkChecksOut(key, link, { ...attempt, id: 8 }, body)).toBe(false)
    expect(linkChecksOut(key, link, { ...attempt, deliveryId: 4 }, body)).toBe(false)
    expect(linkChecksOut(key, link, { ...attempt, eventId: 'evt_2' }, body)).toBe(false)
    expect(linkChecksOut(key, link, attempt, Buffer.from('{"id":"evt_2"}'))).toBe(false)
    // The event id and the body cannot trade bytes: the event id goes with its length.
    const lines = Buffer.from('x\ny')
    const shifted = parseAttemptLink(attemptLink(key, { ...attempt, eventId: 'evt_1\nx' }, Buffer.from('y')))!
    expect(linkChecksOut(key, shifted, attempt, lines)).toBe(false)
    expect(linkChecksOut(key, parseAttemptLink(attemptLink(key, attempt, lines))!, attempt, lines)).toBe(true)
  })

  it('parses the first of repeated headers and trims spaces; a bare number or anything else is no link', () => {
    const value = attemptLink(key, attempt, body)
    expect(parseAttemptLink([` ${value} `, '1'])?.attemptId).toBe(7)
    for (const other of [undefined, '', '7', '7.', `${value}x`, `x${value}`, value.replace('.', ':'), '1234567890123456.AAAAAAAAAAAAAAAAAAAAAA']) {
      expect(parseAttemptLink(other)).toBeNull()
    }
  })
})
