import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

// One build for every front door: the Electron shell (main + preload + renderer), the engine
// process, and the `hookloop` CLI. The CLI and the engine are plain Node and never load 'electron'.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('electron/main/index.ts'),
          cli: resolve('electron/cli/index.ts'),
          // The engine process (utilityProcess in the app, a Node child of `hookloop serve`).
          host: resolve('electron/engine/host-process.ts'),
          // The receiver's schema judge, on a thread of its own (found beside the bundle that starts it).
          'schema-judge-thread': resolve('electron/engine/payload-schemas/judge-thread-entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // The same renderer is served to browsers by `hookloop serve`: ship it minified.
      minify: true,
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
})
