import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh folder under the OS temp dir, removed by the returned cleanup. */
export function makeTempDir(prefix = 'hookloop-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  // Retries: a closing SQLite connection (a worker thread's) may still remove its -wal / -shm files.
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 }) }
}
