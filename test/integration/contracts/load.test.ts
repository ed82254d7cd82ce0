// Real spec files read by the real parsers: OpenAPI 3.1 webhooks, OpenAPI 3.0 callbacks, AsyncAPI
// 2.6 and 3.0 into one model; a spec that does not parse is named with its file, line and JSON
// pointer; a $ref to another file is followed, one to an http host (a real node:http server on
// loopback) only when allowed, and the refused ref is named.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContract, SpecError } from '../../../electron/engine/contracts'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const fixture = (name: string) => join(REPO_ROOT, 'test/fixtures/contracts', name)

async function specError(promise: Promise<unknown>): Promise<SpecError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof SpecError) return error
    throw error
  }
  throw new Error('the spec loaded')
}

describe('loadContract', () => {
  it('reads OpenAPI 3.1 webhooks: names, slugs, event types, $refs resolved, examples, the declared scheme', async () => {
    const spec = await loadContract(fixture('shop-webhooks.openapi-3.1.yaml'))
    expect([spec.title, spec.version, spec.format, spec.dialect]).toEqual(['Shop webhooks', '1.2.0', 'OpenAPI 3.1.0', 'draft-2020-12'])
    expect(spec.operations.map((o) => [o.name, o.slug, o.signature?.scheme, o.messages.map((m) => m.aliases)])).toEqual([
      ['order.created', 'order-created', 'standard-webhooks', [['order.created', 'orderCreated']]],
      ['order.cancelled', 'order-cancelled', 'standard-webhooks', [['order.cancelled', 'orderCancelled']]],
    ])
    const created = spec.operations[0]!.messages[0]!
    // The Order component, through two $refs.
    expect((created.schema as { properties: { data: { required: string[] } } }).properties.data.required).toEqual(['order_id', 'status', 'total', 'customer'])
    expect(created.examples).toHaveLength(1)
  })

  it('reads OpenAPI 3.0 callbacks, with the event type the body pins and the scheme the callback declares', async () => {
    const spec = await loadContract(fixture('payments-callbacks.openapi-3.0.yaml'))
    expect([spec.format, spec.dialect, spec.nullableKeyword]).toEqual(['OpenAPI 3.0.3', 'draft-07', true])
    expect(spec.operations.map((o) => [o.name, o.slug, o.signature?.scheme, o.messages[0]!.eventType, o.messages[0]!.aliases])).toEqual([
      ['paymentSucceeded', 'payment-succeeded', 'stripe', 'payment.succeeded', ['payment.succeeded', 'paymentSucceeded']],
    ])
    expect(spec.operations[0]!.where).toBe('paths › /subscriptions › post › callbacks › paymentSucceeded › {$request.body#/callbackUrl} › post')
  })

  it('reads AsyncAPI 2.6 and 3.0 operations and their messages, a header security scheme mapped to a Hookloop scheme', async () => {
    const v2 = await loadContract(fixture('inventory.asyncapi-2.6.yaml'))
    expect(v2.format).toBe('AsyncAPI 2.6.0')
    expect(v2.operations.map((o) => [o.name, o.slug, o.signature, o.messages.map((m) => [m.eventType, m.examples.length])])).toEqual([
      ['stockChanged', 'stock-changed', { scheme: 'github', from: 'security scheme hubSignature (header X-Hub-Signature-256)' }, [['stock.changed', 1]]],
    ])
    const v3 = await loadContract(fixture('inventory.asyncapi-3.0.yaml'))
    expect(v3.format).toBe('AsyncAPI 3.0.0')
    expect(v3.operations.map((o) => [o.name, o.slug, o.where, o.signature?.from, o.messages.map((m) => m.aliases)])).toEqual([
      ['onStockChanged', 'on-stock-changed', 'operations › onStockChanged (channel /stock)', 'security scheme github (header X-Hub-Signature-256)', [['stock.changed', 'stockChanged', 'onStockChanged']]],
      ['onStockDepleted', 'on-stock-depleted', 'operations › onStockDepleted (channel /stock)', 'security scheme github (header X-Hub-Signature-256)', [['stock.depleted', 'stockDepleted', 'onStockDepleted']]],
    ])
  })

  it('names the file and line of bad YAML, and the file, line and pointer of a $ref to nowhere', async () => {
    const yaml = await specError(loadContract(fixture('broken-yaml.openapi.yaml')))
    expect(yaml.where).toEqual({ file: fixture('broken-yaml.openapi.yaml'), line: 12 })
    expect(yaml.problem).toMatch(/^not valid YAML or JSON: /)
    const ref = await specError(loadContract(fixture('broken-ref.openapi.yaml')))
    expect(ref.where).toEqual({ file: fixture('broken-ref.openapi.yaml'), line: 12, pointer: '/webhooks/order.created/post/requestBody/content/application~1json/schema/$ref' })
    expect(ref.problem).toContain('#/components/schemas/Nowhere')
  })

  it("names where an OpenAPI document breaks the OpenAPI schema, by the parser's words and the JSON pointer", async () => {
    const temp = makeTempDir('hookloop-contract-spec-')
    try {
      const file = join(temp.dir, 'spec.yaml')
      writeFileSync(file, ['openapi: 3.1.0', 'info: {title: T, version: "1"}', 'webhooks:', '  a:', '    post:', "      responses: {'200': {descriptio: typo}}", ''].join('\n'))
      const error = await specError(loadContract(file))
      expect(error.message).toBe(`${file} at /webhooks/a/post/responses/200: not a valid OpenAPI document: REQUIRED must have required property 'description'`)
    } finally {
      temp.cleanup()
    }
  })

  it('names a $ref into another file that points at nothing there, where it is written', async () => {
    const temp = makeTempDir('hookloop-contract-spec-')
    try {
      writeFileSync(join(temp.dir, 'parts.yaml'), 'Order:\n  type: object\n')
      const file = join(temp.dir, 'spec.yaml')
      writeFileSync(file, ['asyncapi: 3.0.0', 'info: {title: T, version: "1"}', 'channels:', '  c:', '    messages:', '      m:', '        payload:', "          $ref: './parts.yaml#/Ordr'", ''].join('\n'))
      const error = await specError(loadContract(file))
      expect(error.where).toEqual({ file, line: 8, pointer: '/channels/c/messages/m/payload/$ref' })
      expect(error.problem).toBe(`the $ref "./parts.yaml#/Ordr" points to /Ordr, which ${join(temp.dir, 'parts.yaml')} does not have`)
    } finally {
      temp.cleanup()
    }
  })

  it('follows a part that refers back into the spec itself, and a field named $ref', async () => {
    const temp = makeTempDir('hookloop-contract-spec-')
    try {
      const file = join(temp.dir, 'spec.yaml')
      writeFileSync(join(temp.dir, 'parts.yaml'), "Event:\n  type: object\n  properties:\n    $ref:\n      type: string\n    id:\n      $ref: './spec.yaml#/components/schemas/Id'\n")
      writeFileSync(file, ['openapi: 3.1.0', 'info: {title: Back, version: "1"}', 'webhooks:', '  a:', '    post:', '      requestBody:', '        content:', '          application/json:', "            schema: {$ref: './parts.yaml#/Event'}", "      responses: {'200': {description: ok}}", 'components:', '  schemas:', '    Id: {type: string, description: the id}', ''].join('\n'))
      const spec = await loadContract(file)
      expect(spec.operations[0]!.messages[0]!.schema).toEqual({ type: 'object', properties: { $ref: { type: 'string' }, id: { type: 'string', description: 'the id' } } })
    } finally {
      temp.cleanup()
    }
  })

  it("says where an AsyncAPI document breaks its schema, with the parser's line and pointer", async () => {
    const temp = makeTempDir('hookloop-contract-spec-')
    try {
      const file = join(temp.dir, 'bad.asyncapi.yaml')
      writeFileSync(file, 'asyncapi: 3.0.0\ninfo:\n  title: No version\nchannels: {}\n')
      const error = await specError(loadContract(file))
      expect(error.where).toEqual({ file, line: 2, pointer: '/info' })
      expect(error.problem).toContain('"version"')
    } finally {
      temp.cleanup()
    }
  })
})

describe('$refs to other documents', () => {
  let temp: ReturnType<typeof makeTempDir>
  let server: Server
  let base: string
  const served: string[] = []

  beforeAll(async () => {
    temp = makeTempDir('hookloop-contract-refs-')
    server = createServer((req, res) => {
      served.push(req.url ?? '')
      if (req.url === '/schemas/order.yaml') {
        res.writeHead(200, { 'content-type': 'application/yaml' })
        res.end('Order:\n  type: object\n  required: [order_id]\n  properties:\n    order_id:\n      $ref: "#/OrderId"\nOrderId:\n  type: string\n  description: served over http\n')
      } else if (req.url === '/specs/inventory.yaml') {
        res.writeHead(200, { 'content-type': 'application/yaml' })
        res.end(readFileSync(fixture('inventory.asyncapi-3.0.yaml')))
      } else {
        res.writeHead(404)
        res.end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // A local part that itself refers to the remote one.
    writeFileSync(join(temp.dir, 'parts.yaml'), `Event:\n  type: object\n  properties:\n    data:\n      $ref: "${base}/schemas/order.yaml#/Order"\n`)
    writeFileSync(
      join(temp.dir, 'spec.yaml'),
      ['openapi: 3.1.0', 'info: {title: Split, version: "1"}', 'webhooks:', '  order.created:', '    post:', '      requestBody:', '        content:', '          application/json:', '            schema:', '              $ref: "./parts.yaml#/Event"', '      responses:', "        '200': {description: ok}", ''].join('\n'),
    )
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    temp.cleanup()
  })

  it('refuses a ref to an http host without the flag, naming it, and fetches nothing', async () => {
    const error = await specError(loadContract(join(temp.dir, 'spec.yaml')))
    expect(error.refusedRef).toBe(`${base}/schemas/order.yaml#/Order`)
    expect(error.where).toEqual({ file: join(temp.dir, 'parts.yaml'), line: 5, pointer: '/Event/properties/data/$ref' })
    expect(error.message).toContain('refused (fetch it with --allow-remote-refs)')
    expect(served).toEqual([])
  })

  it('fetches it with the flag, and resolves refs inside the fetched document', async () => {
    const spec = await loadContract(join(temp.dir, 'spec.yaml'), { allowRemoteRefs: true })
    expect(served).toEqual(['/schemas/order.yaml'])
    const schema = spec.operations[0]!.messages[0]!.schema as { properties: { data: { required: string[]; properties: { order_id: { description: string } } } } }
    expect(schema.properties.data.required).toEqual(['order_id'])
    expect(schema.properties.data.properties.order_id.description).toBe('served over http')
  })

  it('reads a spec from an http URL, and says so when the host answers an error', async () => {
    const spec = await loadContract(`${base}/specs/inventory.yaml`)
    expect([spec.location, spec.format, spec.operations.length]).toEqual([`${base}/specs/inventory.yaml`, 'AsyncAPI 3.0.0', 2])
    const error = await specError(loadContract(`${base}/missing.yaml`))
    expect(error.message).toBe(`${base}/missing.yaml: cannot fetch ${base}/missing.yaml: HTTP 404`)
  })
})
