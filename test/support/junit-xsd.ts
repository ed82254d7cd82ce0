// Validates JUnit XML against the two schemas CI systems read: Jenkins' junit-10.xsd and the
// stricter Apache Ant schema (test/fixtures/junit/, each with its source). xmllint-wasm is libxml2
// compiled to WebAssembly, the same validator as the xmllint command.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { validateXML } from 'xmllint-wasm'
import { REPO_ROOT } from './run-cli'

export const JUNIT_SCHEMAS = ['jenkins-junit-10.xsd', 'ant-junit-windyroad.xsd'] as const

/** Every schema's complaints; an empty list means the XML is valid under both. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const errors: string[] = []
  for (const name of JUNIT_SCHEMAS) {
    const schema = readFileSync(resolve(REPO_ROOT, 'test/fixtures/junit', name), 'utf8')
    const result = await validateXML({ xml: [{ fileName: 'results.xml', contents: xml }], schema: [{ fileName: name, contents: schema }] })
    if (!result.valid) errors.push(...result.errors.map((e) => `${name}: ${e.rawMessage}`))
  }
  return errors
}
