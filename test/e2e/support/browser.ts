// Real headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, with a fresh
// profile per launch and nothing reaching beyond loopback.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM = process.env.HOOKLOOP_CHROMIUM ?? '/usr/bin/chromium'

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

export interface Browser {
  context: BrowserContext
  page: Page
  close(): Promise<void>
}

export async function openBrowser(options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'hookloop-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** What a file's beforeAll made, or an error saying where it is made when a test reads it too early. */
export function ready<T>(made: T | undefined, where: string): T {
  if (made === undefined) throw new Error(where)
  return made
}
