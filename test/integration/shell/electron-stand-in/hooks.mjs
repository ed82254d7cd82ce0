// Module resolution hook (module.register): `electron`, imported by the built main process,
// resolves to the stand-in.
const STAND_IN = new URL('./electron.mjs', import.meta.url).href

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true, format: 'module' }
  return nextResolve(specifier, context)
}
