export { providerBody, splitEventType, type EnvelopeInput } from './envelopes'
export { providerHeaders, type HeaderContext } from './headers'
export { catalogPayload, CatalogError, type PayloadInput } from './payload'
export { packSubscription, type PackSubscriptionInput } from './subscription'
