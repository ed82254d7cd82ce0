// `npm start`: the Electron window where the Electron binary is installed; otherwise browser
// mode (`hookloop serve`), with a one-line explanation.
import { existsSync, readFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { join } from 'node:path'

function electronBinary() {
  const pathFile = join('node_modules', 'electron', 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join('node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' })
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
}

const build = spawn(process.execPath, [join('node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { stdio: 'inherit' })
build.on('exit', (code) => {
  if (code !== 0) process.exit(code ?? 1)
  const binary = electronBinary()
  if (binary) run(binary, ['.'])
  else {
    console.log('hookloop: the Electron binary is not installed (see README, "Installing without the Electron binary"); starting browser mode instead.')
    run(process.execPath, ['out/main/cli.js', 'serve', ...process.argv.slice(2)])
  }
})
