export { createEventFeed, type EventFeed } from './feed'
export { createApiRoute, type ApiRoute } from './http'
export { parseFeedQuery, parseIsoDateTime, type FeedQueryResult } from './query'
export { encodeCursor, decodeCursor } from './cursor'
