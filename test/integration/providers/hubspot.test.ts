import { judgedDeliveries } from './judged'

// HubSpot v3 judged by @hubspot/api-client 13's Signature.isValid (it signs the full URL the request
// was made to, and refuses a timestamp older than 5 minutes).
judgedDeliveries('hubspot', { checksTime: true })
