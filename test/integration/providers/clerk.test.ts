import { judgeSuite } from './judge-suite'

// Clerk signs with Svix (id, timestamp and body): a stale timestamp is refused too.
judgeSuite('clerk')
