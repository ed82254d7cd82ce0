import type { HeaderMap } from '../../../shared/signatures'

/**
 * Every value of a header, whatever the case of its name in the map (HTTP header names are
 * case-insensitive; Node lower-cases them, a JSON file or a test may not). Array values (a header
 * repeated on the wire) are flattened in order.
 */
export function headerValues(headers: HeaderMap, name: string): string[] {
  const wanted = name.toLowerCase()
  const values: string[] = []
  // Every request's check looks up three or four names among a dozen headers: a name of another
  // length is passed over before it is lower-cased. Lower-casing keeps a name's length, but for
  // İ, which becomes i and U+0307: only a wanted name with that mark may come from a shorter one.
  const anyShorter = wanted.includes('\u0307')
  for (const key of Object.keys(headers)) {
    if (key.length > wanted.length || (key.length < wanted.length && !anyShorter) || key.toLowerCase() !== wanted) continue
    const value = headers[key]
    if (value === undefined) continue
    if (Array.isArray(value)) values.push(...value)
    else values.push(value)
  }
  return values
}

/** One header as a single string: repeated values joined with ", " the way Node joins them. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const values = headerValues(headers, name)
  return values.length === 0 ? undefined : values.join(', ')
}
