import type { CatalogEvent, FixtureContext } from './types'

// Zoom: the payload is `payload` of the event (`{object, …}`; the envelope adds account_id), as in
// developers.zoom.us's webhook reference (Meetings, Cloud Recording).

function meeting(ctx: FixtureContext) {
  return { id: ctx.digits(11), uuid: `${ctx.id('', 22)}==`, host_id: ctx.id('', 22), topic: 'Webhook review', type: 2, start_time: ctx.iso(-60_000), timezone: 'Europe/Warsaw', duration: 30 }
}

export const zoomEvents: CatalogEvent[] = [
  { type: 'meeting.created', description: 'A meeting was scheduled.', payload: (ctx) => ({ operator: 'host@example.com', operator_id: ctx.id('', 22), object: { ...meeting(ctx), join_url: 'https://zoom.us/j/0000000000' } }) },
  { type: 'meeting.started', description: 'A meeting started.', payload: (ctx) => ({ object: meeting(ctx) }) },
  { type: 'meeting.ended', description: 'A meeting ended.', payload: (ctx) => ({ object: { ...meeting(ctx), end_time: ctx.iso() } }) },
  { type: 'meeting.participant_joined', description: 'A participant joined a meeting.', payload: (ctx) => ({ object: { ...meeting(ctx), participant: { user_id: ctx.digits(8), user_name: 'Ada Lovelace', id: ctx.id('', 22), join_time: ctx.iso(), email: 'ada@example.com', participant_uuid: ctx.id('', 22) } } }) },
  { type: 'recording.completed', description: 'A cloud recording is ready.', payload: (ctx) => ({ object: { ...meeting(ctx), total_size: 5_242_880, recording_count: 1, share_url: 'https://zoom.us/rec/share/example', recording_files: [{ id: ctx.uuid(), recording_start: ctx.iso(-1_800_000), recording_end: ctx.iso(), file_type: 'MP4', file_size: 5_242_880, status: 'completed', recording_type: 'shared_screen_with_speaker_view' }] } }) },
]
