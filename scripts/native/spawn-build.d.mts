// Types for spawn-build.mjs (imported by the tests).
export function spawnNativeBuild(root: string, options?: { env?: NodeJS.ProcessEnv }): { ok: boolean; line: string; log: string }
