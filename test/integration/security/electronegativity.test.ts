// Electronegativity's offline checks over the app: no high or medium finding that has not been
// reviewed (scripts/security-check.mjs lists the reviewed ones with their reasons).
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('electronegativity', () => {
  it('finds no unreviewed high or medium issue in the shell, preload and renderer', () => {
    const run = spawnSync(process.execPath, ['scripts/security-check.mjs'], { encoding: 'utf8', timeout: 300_000 })
    expect(run.stdout).toContain('0 unreviewed high/medium')
    expect(run.status).toBe(0)
  })
})
