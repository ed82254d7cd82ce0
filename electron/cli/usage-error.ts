import { readFileSync } from 'node:fs'

/** Bad usage: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** A file the command was told to read ('-' or 0: stdin); one it cannot read is bad usage, said by `message(why)`. */
export function readFileOrUsage(path: string | 0, message: (why: string) => string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path)
  } catch (error) {
    throw new UsageError(message((error as NodeJS.ErrnoException).code ?? String(error)))
  }
}
