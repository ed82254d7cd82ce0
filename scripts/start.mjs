// `npm start`: build, then the Electron window where the Electron binary and better-sqlite3 for
// that Electron are installed (rebuilding the latter when its record does not match); otherwise
// browser mode (`hookloop serve`), with one line saying why.
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { checkWindow } from './native/window-check.mjs'

const root = resolve(import.meta.dirname, '..')

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root })
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
}

const build = spawn(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { stdio: 'inherit', cwd: root })
build.on('exit', (code) => {
  if (code !== 0) process.exit(code ?? 1)
  const plan = checkWindow(root)
  for (const line of plan.notices) console.log(`hookloop: ${line}`)
  if (plan.mode === 'electron') run(plan.binary, ['.', ...process.argv.slice(2)])
  else run(process.execPath, [join(root, 'bin', 'hookloop.js'), 'serve', ...process.argv.slice(2)])
})
