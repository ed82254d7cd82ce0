export { localName } from './build-scenario'
export { type Recorder, RecordingError, createRecorder } from './recorder'
