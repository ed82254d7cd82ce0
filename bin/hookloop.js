#!/usr/bin/env node
// The `hookloop` command. A committed, executable file that loads the built CLI: the build
// rewrites out/main/cli.js (without an execute bit) every time, so npm's bin link must never
// point at it directly.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write(`hookloop: the command line is not built (${cli} is missing); run \`npm run build\` first\n`)
  process.exit(2)
}
await import(pathToFileURL(cli).href)
