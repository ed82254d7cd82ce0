// Store rows → RequestRecord: the store's decoder, under the name its readers use.
export { decodeCapture as toRequestRecord } from '../store'
