import { defineConfig } from 'vitest/config'

// A test's first request of a provider's schema waits for the schema to compile (GitHub's: up to a
// second, more on a busy CI machine): a longer limit than vitest's 5 s default.
export default defineConfig({ test: { include: ['*.test.mjs'], testTimeout: 30_000 } })
