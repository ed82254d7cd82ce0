// A provider's own words for a delivery's status (seed provider B calls its final failure
// `failed_permanent`). Reports show the word of the subscription's policy preset next to ours,
// and expectations accept either. A preset without words of its own uses ours.
type OurStatus = 'pending' | 'retrying' | 'succeeded' | 'failed'

export const PRESET_STATUS_WORDS: Readonly<Record<string, Readonly<Partial<Record<OurStatus, string>>>>> = {
  // Seed B (CSKU AI docs): "after 3 retries the delivery is marked failed_permanent".
  csku: { failed: 'failed_permanent' },
}

const OURS: readonly string[] = ['pending', 'retrying', 'succeeded', 'failed']

/** Every provider word any preset defines (for the schema's message). */
export function providerStatusWords(): string[] {
  return [...new Set(Object.values(PRESET_STATUS_WORDS).flatMap((words) => Object.values(words)))]
}

export function isStatusWord(value: string): boolean {
  return OURS.includes(value) || providerStatusWords().includes(value)
}

/** The preset's word for our status, or ours when it has none. */
export function statusWordFor(preset: string | undefined, status: OurStatus): string {
  return (preset === undefined ? undefined : PRESET_STATUS_WORDS[preset]?.[status]) ?? status
}

/** Our status a word means under a preset; undefined when the word is neither ours nor that preset's. */
export function statusOfWord(preset: string | undefined, word: string): OurStatus | undefined {
  if (OURS.includes(word)) return word as OurStatus
  const words = preset === undefined ? undefined : PRESET_STATUS_WORDS[preset]
  const found = words ? (Object.entries(words) as [OurStatus, string][]).find(([, w]) => w === word) : undefined
  return found?.[0]
}
