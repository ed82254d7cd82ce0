// Loaded (--import) into the engine child that the stand-in's utilityProcess.fork starts: gives
// it process.parentPort as Electron gives a utility process, so the engine takes the same code
// path and gets the same messages ({ data } events in, postMessage out) as inside the app. Like
// Electron's port, it holds messages until the first 'message' listener starts it.
import { EventEmitter } from 'node:events'

const parentPort = new EventEmitter()
const queued = []
let started = false
parentPort.postMessage = (message) => process.send(message)
parentPort.on('newListener', (event) => {
  if (event !== 'message' || started) return
  started = true
  setImmediate(() => queued.splice(0).forEach((data) => parentPort.emit('message', { data, ports: [] })))
})
process.on('message', (data) => (started ? parentPort.emit('message', { data, ports: [] }) : queued.push(data)))
process.parentPort = parentPort
