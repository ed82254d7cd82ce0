// The temp folder most test files set up by hand: made before each test (or once for the block)
// and removed after. A file of its own so temp-dir.ts stays free of vitest for the benchmarks.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { makeTempDir } from './temp-dir'

/** A fresh folder for each test of the block (`each`) or one for the whole block (`all`), removed after it. */
export function useTempDir(prefix?: string, scope: 'each' | 'all' = 'each'): { readonly dir: string } {
  let temp: ReturnType<typeof makeTempDir> | undefined
  ;(scope === 'each' ? beforeEach : beforeAll)(() => {
    temp = makeTempDir(prefix)
  })
  ;(scope === 'each' ? afterEach : afterAll)(() => temp?.cleanup())
  return {
    get dir() {
      if (!temp) throw new Error('the temp folder is made in a before hook')
      return temp.dir
    },
  }
}
