import type { HeaderMap } from '../../../shared/signatures'

/**
 * Every value of a header, whatever the case of its name in the map (HTTP header names are
 * case-insensitive; Node lower-cases them, a JSON file or a test may not). Array values (a header
 * repeated on the wire) are flattened in order.
 */
export function headerValues(headers: HeaderMap, name: string): string[] {
  const wanted = name.toLowerCase()
  const values: string[] = []
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue
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
