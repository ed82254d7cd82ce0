import type { CatalogEvent, FixtureContext } from './types'

// Zoom: the payload is `payload` of the event (`{object, …}`; the envelope adds account_id), as in
// developers.zoom.us's webhook reference (Meetings, Cloud Recording) and the event types Zoom's
// Node SDK publishes from it (@zoom/rivet's Meetings module: `MeetingCreatedEvent` …): every
// required field with its type. A meeting's id is a number in meeting.created and
// recording.completed and a string in meeting.started, meeting.ended and
// meeting.participant_joined, as Zoom's schemas say. One meeting per event: its uuid names its
// recording files, its account is the pack's.

/** The account the pack's envelope names (shared/providers/zoom.ts). */
const ACCOUNT_ID = 'hookloopAcct0001'

/** One meeting: its numeric id (Zoom writes it as a string in some events), uuid and host. */
function meeting(ctx: FixtureContext) {
  return { id: Number(ctx.digits(11)), uuid: `${ctx.id('', 22)}==`, host_id: ctx.id('', 22), topic: 'Webhook review', type: 2, start_time: ctx.iso(-60_000), timezone: 'Europe/Warsaw', duration: 30 }
}

// MeetingCreatedEvent: the operator who scheduled it, the meeting with its join URL and settings.
function meetingCreated(ctx: FixtureContext) {
  const m = meeting(ctx)
  return {
    operator: 'host@example.com',
    operator_id: m.host_id,
    object: { ...m, start_time: ctx.iso(86_400_000), join_url: `https://zoom.us/j/${m.id}?pwd=${ctx.id('', 32)}`, password: ctx.digits(6), settings: { use_pmi: false, alternative_hosts: '', join_before_host: false, jbh_time: 0 } },
  }
}

// MeetingStartedEvent / MeetingEndedEvent: the meeting with its id as a string.
function meetingLive(ctx: FixtureContext, ended: boolean) {
  const m = meeting(ctx)
  return { object: { ...m, id: String(m.id), ...(ended ? { end_time: ctx.iso() } : {}) } }
}

// MeetingParticipantJoinedEvent: the meeting (id as a string) and who joined.
function participantJoined(ctx: FixtureContext) {
  const m = meeting(ctx)
  const userId = ctx.digits(8)
  return { object: { ...m, id: String(m.id), participant: { user_id: userId, user_name: 'Ada Lovelace', id: ctx.id('', 22), participant_uuid: ctx.uuid().toUpperCase(), join_time: ctx.iso(), email: 'ada@example.com', participant_user_id: ctx.id('', 22) } } }
}

// RecordingCompletedEvent: the meeting (numeric id) and its files, whose meeting_id is the
// meeting's uuid; total_size and recording_count add up the files. The download token that
// authorizes the files' download_url goes beside payload (the envelope moves it there).
function recordingCompleted(ctx: FixtureContext) {
  const m = meeting(ctx)
  const start = ctx.iso(-1_800_000)
  const end = ctx.iso()
  const file = (file_type: string, file_extension: string, file_size: number, recording_type: string) => {
    const id = ctx.uuid()
    return { id, meeting_id: m.uuid, recording_start: start, recording_end: end, file_type, file_size, file_extension, play_url: `https://zoom.us/rec/play/${id}`, download_url: `https://zoom.us/rec/download/${id}`, status: 'completed', recording_type }
  }
  const files = [file('MP4', 'MP4', 5_242_880, 'shared_screen_with_speaker_view'), file('M4A', 'M4A', 524_288, 'audio_only')]
  return {
    download_token: ctx.id('', 120),
    object: {
      ...m,
      account_id: ACCOUNT_ID,
      password: ctx.id('', 8),
      host_email: 'host@example.com',
      share_url: `https://zoom.us/rec/share/${ctx.id('', 40)}`,
      total_size: files.reduce((sum, f) => sum + f.file_size, 0),
      recording_count: files.length,
      recording_files: files,
    },
  }
}

export const zoomEvents: CatalogEvent[] = [
  { type: 'meeting.created', description: 'A meeting was scheduled.', payload: meetingCreated },
  { type: 'meeting.started', description: 'A meeting started.', payload: (ctx) => meetingLive(ctx, false) },
  { type: 'meeting.ended', description: 'A meeting ended.', payload: (ctx) => meetingLive(ctx, true) },
  { type: 'meeting.participant_joined', description: 'A participant joined a meeting.', payload: participantJoined },
  { type: 'recording.completed', description: 'A cloud recording is ready.', payload: recordingCompleted },
]
