// Whether anything accepts a TCP connection at a URL's host and port: a trigger aimed at an
// endpoint needs the app or `hookloop listen` running on this data folder to receive it.
import { connect } from 'node:net'

export function portAnswers(url: string, waitMs = 2000): Promise<boolean> {
  const target = new URL(url)
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80))
  const host = target.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    const done = (answered: boolean) => {
      socket.destroy()
      resolve(answered)
    }
    socket.setTimeout(waitMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}
