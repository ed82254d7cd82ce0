import { judgeSuite } from './judge-suite'

// Resend signs with Svix (id, timestamp and body): a stale timestamp is refused too.
judgeSuite('resend')
