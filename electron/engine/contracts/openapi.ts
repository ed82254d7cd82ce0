// An OpenAPI 3.0 or 3.1 document's deliveries: 3.1's `webhooks:` and the `callbacks` of its
// operations (3.0 and 3.1). @readme/openapi-parser checks the document and resolves its $refs.
import { dereference, validate } from '@readme/openapi-parser'
import { messageNames, slugOf, type ContractOperation, type ContractSpec } from './model'
import { declaredSignature, schemeList, SIGNATURE_EXTENSION, type HeaderSecurity } from './signature'
import { jsonPointer, SpecError } from './spec-error'
import { lineOfRef, type SpecSource } from './spec-source'

const METHODS = ['post', 'put', 'patch', 'delete', 'get'] as const

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const obj = (v: unknown): Json => (isObject(v) ? v : {})

/** Where a $ref is written: the first place, as a JSON pointer (for the parser's messages that name only the ref). */
function pointerOfRef(node: unknown, ref: string, path: (string | number)[] = []): string | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = pointerOfRef(item, ref, [...path, i])
      if (found !== undefined) return found
    }
  } else if (isObject(node)) {
    if (node.$ref === ref) return jsonPointer([...path, '$ref'])
    for (const [key, value] of Object.entries(node)) {
      const found = pointerOfRef(value, ref, [...path, key])
      if (found !== undefined) return found
    }
  }
  return undefined
}

/**
 * The JSON pointer of each line of `JSON.stringify(value, null, 2)` (index = line − 1): the parser
 * shows a schema violation as a frame of the document so printed, its line marked `> N |`.
 */
function linePointers(value: unknown): string[] {
  const lines = ['']
  const walk = (v: unknown, pointer: string) => {
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : isObject(v) ? Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function') : []
    if (entries.length === 0) return
    for (const [key, x] of entries) {
      const at = jsonPointer([...(pointer ? pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')) : []), key])
      lines.push(at)
      walk(x, at)
    }
    lines.push(pointer)
  }
  walk(value, '')
  return lines
}

/** The parser's first error, placed: a missing $ref target at the ref; a schema violation at the line its frame marks. */
async function problemOf(message: string, source: SpecSource, extra: number): Promise<SpecError> {
  const first = message.split('\n')[0]!.trim()
  const more = extra > 0 ? ` (and ${extra} more)` : ''
  const missing = /\$ref pointer "([^"]+)"/.exec(first)?.[1]
  if (missing) {
    return new SpecError(`${first}${more}`, { file: source.location, line: source.bundled ? undefined : lineOfRef(source.text, missing), pointer: pointerOfRef(source.document, missing) })
  }
  const marked = /^> *(\d+) \|/m.exec(message)?.[1]
  let pointer: string | undefined
  if (marked) {
    try {
      // The document the parser validated: $refs resolved, recursive ones left as refs.
      const printed = await dereference(structuredClone(source.document) as never, { dereference: { circular: 'ignore' } })
      pointer = linePointers(printed)[Number(marked) - 1]
    } catch {
      pointer = undefined
    }
  }
  return new SpecError(`not a valid OpenAPI document: ${first}${more}`, { file: source.location, pointer })
}

function headerSecurity(requirements: unknown, schemes: Json): HeaderSecurity[] {
  const names = Array.isArray(requirements) ? requirements.flatMap((r) => Object.keys(obj(r))) : Object.keys(schemes)
  return names.flatMap((name) => {
    const s = obj(schemes[name])
    return s.type === 'apiKey' && s.in === 'header' && typeof s.name === 'string' ? [{ name, header: s.name }] : []
  })
}

export async function openApiSpec(source: SpecSource): Promise<Omit<ContractSpec, 'digest'>> {
  const version = String(source.document.openapi)
  if (!/^3\.[01]\.\d+/.test(version)) throw new SpecError(`OpenAPI ${version}: Hookloop reads OpenAPI 3.0 and 3.1`, { file: source.location, pointer: '/openapi' })
  let api: Json
  try {
    const result = await validate(structuredClone(source.document) as never)
    if (!result.valid) throw await problemOf(result.errors[0]?.message ?? 'invalid', source, result.errors.length - 1 + result.additionalErrors)
    api = (await dereference(structuredClone(source.document) as never)) as unknown as Json
  } catch (error) {
    if (error instanceof SpecError) throw error
    throw await problemOf((error as Error).message, source, 0)
  }
  const schemes = obj(obj(api.components).securitySchemes)
  const operations: ContractOperation[] = []

  const add = (name: string, where: string[], op: Json, parents: { value: unknown; where: string }[]) => {
    const content = obj(obj(op.requestBody).content)
    const [contentType, media] = Object.entries(content).find(([type]) => /json/i.test(type)) ?? Object.entries(content)[0] ?? [null, {}]
    const mediaObject = obj(media)
    const schema = isObject(mediaObject.schema) ? mediaObject.schema : null
    const examples = [
      ...(mediaObject.example === undefined ? [] : [mediaObject.example]),
      ...Object.values(obj(mediaObject.examples)).flatMap((e) => (isObject(e) && e.value !== undefined ? [e.value] : [])),
    ]
    const whereText = where.join(' › ')
    const signature = declaredSignature([{ value: op[SIGNATURE_EXTENSION], where: whereText }, ...parents], headerSecurity(op.security ?? api.security, schemes))
    if (signature && 'unknown' in signature) throw new SpecError(`${SIGNATURE_EXTENSION}: "${signature.unknown}" is not a signature scheme Hookloop knows (${schemeList()})`, { file: source.location, pointer: jsonPointer([...where, SIGNATURE_EXTENSION]) })
    operations.push({
      name,
      slug: slugOf(name),
      where: whereText,
      messages: [{ ...messageNames(schema, [name, typeof op.operationId === 'string' ? op.operationId : null]), contentType, schema, examples }],
      signature,
    })
  }
  const root = { value: api[SIGNATURE_EXTENSION], where: 'the document' }

  for (const [name, item] of Object.entries(obj(api.webhooks))) {
    const methods = METHODS.filter((m) => isObject(obj(item)[m]))
    for (const method of methods) add(methods.length > 1 ? `${name} ${method.toUpperCase()}` : name, ['webhooks', name, method], obj(obj(item)[method]), [{ value: obj(item)[SIGNATURE_EXTENSION], where: `webhooks › ${name}` }, root])
  }
  for (const [path, item] of Object.entries(obj(api.paths))) {
    for (const method of METHODS) {
      const callbacks = obj(obj(obj(item)[method]).callbacks)
      for (const [callback, expressions] of Object.entries(callbacks)) {
        const entries = Object.entries(obj(expressions)).flatMap(([expression, cbItem]) => METHODS.filter((m) => isObject(obj(cbItem)[m])).map((m) => ({ expression, cbItem: obj(cbItem), m })))
        for (const { expression, cbItem, m } of entries) {
          const op = obj(cbItem[m])
          const name = entries.length > 1 ? `${callback} ${m.toUpperCase()} ${expression}` : callback
          add(name, ['paths', path, method, 'callbacks', callback, expression, m], op, [{ value: cbItem[SIGNATURE_EXTENSION], where: `callbacks › ${callback}` }, root])
        }
      }
    }
  }
  const info = obj(api.info)
  return {
    location: source.location,
    title: typeof info.title === 'string' ? info.title : source.location,
    version: typeof info.version === 'string' ? info.version : '',
    format: `OpenAPI ${version}`,
    dialect: version.startsWith('3.1') ? 'draft-2020-12' : 'draft-07',
    nullableKeyword: version.startsWith('3.0'),
    operations,
  }
}
