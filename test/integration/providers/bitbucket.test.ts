import { judgeSuite } from './judge-suite'

// Bitbucket Cloud signs the body only (no timestamp): a stale delivery is not a refusal case.
judgeSuite('bitbucket')
