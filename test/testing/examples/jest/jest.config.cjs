// A test's first request of a provider's schema waits for the schema to compile (GitHub's: up to a
// second, more on a busy CI machine): a longer limit than Jest's 5 s default.
module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/*.test.cjs'], testTimeout: 30_000 }
