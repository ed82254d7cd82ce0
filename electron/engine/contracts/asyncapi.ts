// An AsyncAPI 2.x or 3.x document's deliveries: each operation with its messages. @asyncapi/parser
// checks the document, resolves its $refs and reads both versions into one model.
import { DiagnosticSeverity, Parser } from '@asyncapi/parser'
import { messageNames, slugOf, type ContractOperation, type ContractSpec } from './model'
import { declaredSignature, schemeList, SIGNATURE_EXTENSION, type HeaderSecurity } from './signature'
import { jsonPointer, SpecError } from './spec-error'
import type { SpecSource } from './spec-source'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function headerSecurity(schemes: { id(): string; json(): unknown }[]): HeaderSecurity[] {
  return schemes.flatMap((s) => {
    const json = s.json()
    return isObject(json) && json.type === 'httpApiKey' && json.in === 'header' && typeof json.name === 'string' ? [{ name: s.id(), header: json.name }] : []
  })
}

export async function asyncApiSpec(source: SpecSource): Promise<Omit<ContractSpec, 'digest'>> {
  const version = String(source.document.asyncapi)
  if (!/^[23]\.\d+\.\d+/.test(version)) throw new SpecError(`AsyncAPI ${version}: Hookloop reads AsyncAPI 2.x and 3.x`, { file: source.location, pointer: '/asyncapi' })
  // The text itself when nothing was inlined: the parser's lines are then the file's lines.
  const { document, diagnostics } = await new Parser().parse(source.bundled ? (source.document as never) : source.text, source.bundled ? {} : { source: source.location })
  const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error)
  if (errors.length > 0 || !document) {
    const first = errors[0]
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''
    throw new SpecError(`${first?.message ?? 'the parser read no document'}${more}`, {
      file: source.location,
      line: first && !source.bundled ? first.range.start.line + 1 : undefined,
      pointer: first ? jsonPointer(first.path) : undefined,
    })
  }
  const root = document.json() as Json
  const rootSignature = { value: root[SIGNATURE_EXTENSION], where: 'the document' }
  const allSchemes = headerSecurity(document.securitySchemes().all())
  const operations: ContractOperation[] = []
  for (const op of document.operations().all()) {
    const channel = op.channels().all()[0]
    const name = op.id() ?? `${channel?.address() ?? 'channel'} ${op.action()}`
    const where = ['operations', name].join(' › ')
    // A requirement's scheme comes resolved, without its name: the document's scheme with the same fields names it.
    const own = op.security().flatMap((requirements) =>
      headerSecurity(requirements.all().map((r) => r.scheme())).map((s) => ({ ...s, name: allSchemes.find((a) => a.header === s.header)?.name ?? s.name })),
    )
    const signature = declaredSignature([{ value: (op.json() as Json)[SIGNATURE_EXTENSION], where }, rootSignature], own.length > 0 ? own : allSchemes)
    if (signature && 'unknown' in signature) throw new SpecError(`${SIGNATURE_EXTENSION}: "${signature.unknown}" is not a signature scheme Hookloop knows (${schemeList()})`, { file: source.location })
    operations.push({
      name,
      slug: slugOf(name),
      where: channel?.address() ? `${where} (channel ${channel.address()})` : where,
      signature,
      messages: op.messages().all().map((message) => {
        const payload = message.payload()?.json()
        const schema = isObject(payload) ? payload : null
        return {
          ...messageNames(schema, [message.name(), message.id(), op.messages().all().length === 1 ? name : null]),
          contentType: message.contentType() ?? null,
          schema,
          examples: message.examples().all().flatMap((e) => (e.hasPayload() ? [e.payload()] : [])),
        }
      }),
    })
  }
  const info = document.info()
  return {
    location: source.location,
    title: info.title(),
    version: info.version(),
    format: `AsyncAPI ${version}`,
    // AsyncAPI's schema object is a superset of JSON Schema draft 07 (2.x and 3.x alike).
    dialect: 'draft-07',
    nullableKeyword: false,
    operations,
  }
}
