// The `query` matcher: a query parameter present, or equal to a value. Names are exact (query
// parameters are case-sensitive, unlike header names); values are compared decoded, as a provider
// means them (`?validationToken=a%20b` carries "a b").
import type { Matcher } from '../../../shared/receiver'

export function compileQueryMatcher(m: Extract<Matcher, { type: 'query' }>): (query: string) => boolean {
  const { name, value: expected } = m
  return (query) => {
    if (query === '') return false
    const values = new URLSearchParams(query).getAll(name)
    if (values.length === 0) return false
    return expected === undefined || values.includes(expected)
  }
}
