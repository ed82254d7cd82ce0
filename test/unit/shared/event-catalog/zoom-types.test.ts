import { describe, expect, it } from 'vitest'
import { zoomEvents } from '../../../../shared/event-catalog/zoom'
import { itCompilesEveryEvent, typeErrors } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Zoom catalog event against the event types Zoom's Node SDK publishes (@zoom/rivet's
// meetings module: `MeetingCreatedEvent` …, generated from Zoom's Meetings webhook reference),
// compiled strict: the whole body as the event's type. A required field missing, an unknown field
// or a wrong type (a meeting id that is a string where Zoom says number) fails.

const EVENT_TYPES: Record<string, string> = {
  'meeting.created': 'MeetingCreatedEvent',
  'meeting.started': 'MeetingStartedEvent',
  'meeting.ended': 'MeetingEndedEvent',
  'meeting.participant_joined': 'MeetingParticipantJoinedEvent',
  'recording.completed': 'RecordingCompletedEvent',
}

const IMPORTS = [`import type { ${Object.values(EVENT_TYPES).join(', ')} } from '@zoom/rivet/meetings'`]

type Body = { event: string; event_ts: number; download_token?: string; payload: { account_id: string; object: Record<string, unknown> } & Record<string, unknown> }

const zoomBody = (type: string) => catalogBody<Body>('zoom', type)

const check = (type: string, body: Body) => ({ name: type, type: EVENT_TYPES[type] ?? 'never', value: body })

describe('Zoom catalog events and Zoom\u2019s published event types', () => {
  itCompilesEveryEvent('every catalog event, as the whole body, type-checks as its Zoom event type', IMPORTS, zoomEvents, (type) => check(type, zoomBody(type)))

  it('the check refuses a meeting id of the wrong type and a missing required field', () => {
    const created = zoomBody('meeting.created')
    created.payload.object.id = String(created.payload.object.id)
    const started = zoomBody('meeting.started')
    delete started.payload.object.host_id
    const errors = typeErrors(IMPORTS, [check('meeting.created', created), check('meeting.started', started)])
    expect(errors['meeting.created']!.join(' ')).toMatch(/string.*number/)
    expect(errors['meeting.started']!.join(' ')).toMatch(/host_id/)
  })

  it('ids agree within an event: recording files name the meeting, the recording\u2019s account is the envelope\u2019s, sizes add up', () => {
    const body = zoomBody('recording.completed')
    const object = body.payload.object as { uuid: string; account_id: string; total_size: number; recording_count: number; recording_files: { meeting_id: string; file_size: number }[] }
    expect(object.account_id).toBe(body.payload.account_id)
    expect(object.recording_files.every((f) => f.meeting_id === object.uuid)).toBe(true)
    expect(object.recording_count).toBe(object.recording_files.length)
    expect(object.total_size).toBe(object.recording_files.reduce((sum, f) => sum + f.file_size, 0))
    const created = zoomBody('meeting.created')
    expect(created.payload.operator_id).toBe(created.payload.object.host_id)
  })

  it('a recording\u2019s download token is beside payload, not in it', () => {
    const body = zoomBody('recording.completed')
    expect(body.download_token).toMatch(/^[A-Za-z0-9]{120}$/)
    expect(body.payload).not.toHaveProperty('download_token')
    expect(zoomBody('meeting.started')).not.toHaveProperty('download_token')
  })

  it('values are fresh per send', () => {
    expect(zoomBody('meeting.started').payload.object.uuid).not.toBe(zoomBody('meeting.started').payload.object.uuid)
  })
})
