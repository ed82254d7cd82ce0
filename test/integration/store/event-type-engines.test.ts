// A request's event type as both store engines read it (engine-spelling.ts requestEventType):
// a header of EVENT_TYPE_HEADERS first (its name in any case, the first of the list with a value),
// else the JSON body's event_type, type or event; rows that hold neither, or hold bad JSON or bytes
// that are not UTF-8, name none. Real SQLite file, real PostgreSQL.
import { describe, expect, it } from 'vitest'
import type { SqlEngine, StoreKind } from '../../../electron/engine/store'
import { requestEventType } from '../../../electron/engine/store/engine-spelling'
import { useBareEngines } from '../../support/use-bare-engines'

const bareEngine = useBareEngines()
const json = (value: unknown) => Buffer.from(JSON.stringify(value))
const ROWS: Array<[name: string, headers: string | null, body: Buffer | null, expected: string | null]> = [
  ['a header, named in another case', JSON.stringify([['X-GitHub-Event', ' push '], ['content-type', 'application/json']]), json({ type: 'not-this' }), 'push'],
  ['the first header of the list with a value', JSON.stringify([['x-webhook-event', 'second'], ['X-Event-Type', 'first']]), null, 'first'],
  ['a header with an empty value: the body', JSON.stringify([['x-event-type', '  ']]), json({ type: 'from.body' }), 'from.body'],
  ['a header name only among the values: the body', JSON.stringify([['x-note', 'x-event-type'], ['x-event-type-ish', 'no']]), json({ event: 'from.event' }), 'from.event'],
  ['the body: event_type before type', JSON.stringify([['content-type', 'application/json']]), json({ type: 'b', event_type: 'a' }), 'a'],
  ['a body that is not an object', JSON.stringify([]), json(['type']), null],
  ['a body that is not JSON', JSON.stringify([]), Buffer.from('type=charge.failed'), null],
  ['a body that is not UTF-8', JSON.stringify([]), Buffer.from([0x7b, 0x22, 0x74, 0xff, 0x22, 0x7d]), null],
  ['headers that are not JSON (a bad row) naming a header', 'x-event-type: nope', json({ type: 'still.body' }), 'still.body'],
  ['nothing at all', null, null, null],
]

async function engineOf(kind: StoreKind): Promise<SqlEngine> {
  const engine = await bareEngine(kind)
  await engine.exec(`CREATE TABLE samples (id BIGINT PRIMARY KEY, headers_json TEXT, body ${kind === 'sqlite' ? 'BLOB' : 'BYTEA'})`)
  for (const [i, [, headers, body]] of ROWS.entries()) await engine.run('INSERT INTO samples (id, headers_json, body) VALUES (?, ?, ?)', [i, headers, body])
  return engine
}

describe.each(['sqlite', 'postgres'] as const)('a request event type on %s', (kind) => {
  it('is read from the headers, else the body, and is none for rows that name none', async () => {
    const engine = await engineOf(kind)
    const read = await engine.all<{ id: number; event_type: string | null }>(`SELECT id, ${requestEventType(kind, 'headers_json', 'body')} AS event_type FROM samples ORDER BY id`)
    expect(read.map((row) => [ROWS[row.id]![0], row.event_type])).toEqual(ROWS.map(([name, , , expected]) => [name, expected]))
  })
})
