// js-yaml ships no types; the little the spec loader uses of it.
declare module 'js-yaml' {
  export class YAMLException extends Error {
    reason: string
    mark?: { line: number; column: number; name?: string | null }
  }
  export function load(text: string, options?: { filename?: string; json?: boolean }): unknown
}
