import { randomUUID } from 'node:crypto'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../electron/engine/providers'
import { fixtureContext } from '../../../shared/event-catalog'
import { resendEvents } from '../../../shared/event-catalog/resend'
import { PROVIDERS } from '../../../shared/providers'

// Every Resend catalog event, as the whole body Hookloop sends, against the `resend` package's own
// `WebhookEventPayload` type: the body is written into a source file as a literal of that type
// and the TypeScript compiler checks it (a missing required field, a field Resend's type lacks or
// a wrong type is an error). A program of its own: resend's declarations import React's, which
// must not enter the project's node program.

const ROOT = path.resolve(__dirname, '../../..')

function typeErrors(bodies: unknown[]): string[] {
  const file = path.join(ROOT, 'test/unit/providers', `resend-event-check.${process.pid}.ts`)
  const source = [`import type { WebhookEventPayload } from 'resend'`, ...bodies.map((b, i) => `export const e${i}: WebhookEventPayload = ${JSON.stringify(b)}`)].join('\n')
  const options: ts.CompilerOptions = { strict: true, exactOptionalPropertyTypes: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (f) => (path.resolve(f) === file ? source : readFile(f))
  host.fileExists = (f) => path.resolve(f) === file || fileExists(f)
  host.getSourceFile = (f, lang, ...rest) => (path.resolve(f) === file ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest))
  const program = ts.createProgram([file], options, host)
  const sf = program.getSourceFile(file)!
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' / '))
}

function body(type: string, payload: unknown, now: number): unknown {
  return JSON.parse(providerBody(PROVIDERS.resend, { eventId: randomUUID(), eventType: type, payload: Buffer.from(JSON.stringify(payload)), createdAt: now, sentAt: now }).toString('utf8'))
}

describe('Resend catalog against the resend package\u2019s WebhookEventPayload', () => {
  const now = Date.UTC(2026, 11, 2)

  it('every event body is {type, created_at, data} with the catalog payload as data', () => {
    for (const event of resendEvents) {
      const payload = event.payload(fixtureContext(now))
      expect(body(event.type, payload, now)).toEqual({ type: event.type, created_at: new Date(now).toISOString(), data: payload })
    }
  })

  it('every event body compiles as a WebhookEventPayload; a body missing a field does not', () => {
    const bodies = resendEvents.map((e) => body(e.type, e.payload(fixtureContext(now)), now))
    expect(typeErrors(bodies)).toEqual([])
    const bounced = body('email.bounced', { ...resendEvents[2].payload(fixtureContext(now)), bounce: undefined }, now)
    expect(typeErrors([bounced]).join(' ')).toMatch(/bounce/)
  }, 60_000)
})
