// The dedupe key's bound, shared by the key extractor and the body reader (which keeps longer
// strings as bytes, never as a string of their size).

/** Longest key stored and compared as itself; longer ones are kept as their SHA-256 digest. */
export const KEY_MAX_BYTES = 512
