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
// Under `npx hookloop` (`npm exec`) this process is npm's grandchild: npm → sh -c → node. Stopping
// npm by its PID ends the shell but not this process, which then ran on with its port and data
// folder. So when the process that started it goes away, it stops as on SIGTERM (each command's
// own clean stop). Only under npm exec: `nohup hookloop listen &` must outlive its shell.
if (process.env.npm_command === 'exec') {
  const parent = process.ppid
  const watch = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(watch)
    process.kill(process.pid, 'SIGTERM')
  }, 250)
  watch.unref()
}
await import(pathToFileURL(cli).href)
