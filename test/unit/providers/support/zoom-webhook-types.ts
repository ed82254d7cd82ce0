// The five Zoom webhook events the catalog sends, as Zoom publishes their bodies: the Meetings
// webhook reference (developers.zoom.us/docs/api/meetings/events) and the types Zoom's Node SDK
// generates from it (@zoom/rivet 0.3, meetings module: `MeetingCreatedEvent` …). Required and
// optional fields and their types are Zoom's; fields Zoom marks optional that the catalog never
// sends are left out (the check would then refuse them as unknown, which is the safe side).
// @zoom/rivet is not a dev dependency here, so its types are written out for the check.

export interface MeetingCreatedEvent {
  event: string
  event_ts: number
  payload: {
    account_id: string
    operator: string
    operator_id: string
    operation?: string
    object: {
      uuid: string
      id: number
      host_id: string
      topic: string
      type: number
      start_time?: string
      duration: number
      timezone?: string
      join_url: string
      password?: string
      pmi?: string
      settings: { use_pmi: boolean; alternative_hosts: string; join_before_host?: boolean; jbh_time?: number }
    }
  }
}

interface LiveMeeting {
  id: string
  uuid: string
  host_id: string
  topic: string
  type: number
  start_time: string
  timezone?: string
  duration: number
}

export interface MeetingStartedEvent {
  event: string
  event_ts: number
  payload: { account_id: string; object: LiveMeeting }
}

export interface MeetingEndedEvent {
  event: string
  event_ts: number
  payload: { account_id: string; object: LiveMeeting & { end_time: string } }
}

export interface MeetingParticipantJoinedEvent {
  event: string
  event_ts: number
  payload: {
    account_id: string
    object: {
      id?: string
      uuid: string
      host_id: string
      topic?: string
      type: number
      start_time?: string
      timezone?: string
      duration: number
      participant: {
        user_id: string
        user_name: string
        id?: string
        participant_uuid?: string
        join_time: string
        email: string
        registrant_id?: string
        participant_user_id?: string
        customer_key?: string
        phone_number?: string
      }
    }
  }
}

export interface RecordingCompletedEvent {
  event: string
  event_ts: number
  /** At the top of the body, beside payload. */
  download_token: string
  payload: {
    account_id: string
    object: {
      id: number
      uuid: string
      host_id: string
      account_id: string
      topic: string
      type: number
      start_time: string
      password: string
      timezone?: string
      host_email: string
      duration: number
      share_url: string
      total_size: number
      recording_count: number
      recording_files: {
        id: string
        meeting_id: string
        recording_start: string
        recording_end: string
        file_type: string
        file_size: number
        file_extension: string
        file_name?: string
        play_url?: string
        download_url: string
        file_path?: string
        status: string
        recording_type: string
      }[]
    }
  }
}
