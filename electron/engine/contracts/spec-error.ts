// A spec Hookloop cannot use: the parser's message with where it is (the file or URL, the line when
// the parser gives one, the JSON pointer). The CLI prints it and exits 2.
export class SpecError extends Error {
  override readonly name = 'SpecError'
  constructor(
    readonly problem: string,
    readonly where: { file: string; line?: number | undefined; pointer?: string | undefined },
    /** A remote $ref that was not fetched: the ref, as the spec writes it. */
    readonly refusedRef?: string,
  ) {
    super(`${where.file}${where.line === undefined ? '' : `:${where.line}`}${where.pointer === undefined ? '' : ` at ${where.pointer || '/'}`}: ${problem}`)
  }
}

/** RFC 6901: a JSON pointer from path parts. */
export function jsonPointer(parts: readonly (string | number)[]): string {
  return parts.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
}
