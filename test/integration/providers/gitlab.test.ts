import { judgeSuite } from './judge-suite'

// GitLab sends its secret token as is (X-Gitlab-Token) and signs no time: a stale delivery is
// not a refusal case, a wrong or altered token is.
judgeSuite('gitlab')
