// Installers: `npm run dist` builds them for the OS it runs on; .github/workflows/installers.yml
// builds all three and smoke-tests each packaged app. Checked against electron-builder's own
// schema (node_modules/app-builder-lib/scheme.json) by test/unit/shell/electron-builder-config.test.ts.
/* global module -- CommonJS: electron-builder loads .cjs configs with require */
/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'dev.hookloop.desktop',
  productName: 'Hookloop',
  copyright: 'Copyright © Hookloop contributors',
  directories: { output: 'dist', buildResources: 'build' },
  files: [
    'out/**/*',
    'package.json',
    // better-sqlite3's JavaScript only: the app loads native/electron's build through nativeBinding,
    // never node_modules' compiled (Node ABI) one, its C sources or its SQLite amalgamation.
    '!node_modules/better-sqlite3/{build,deps,src}/**',
    '!node_modules/better-sqlite3/binding.gyp',
    'native/electron/better_sqlite3.node',
    'native/electron/build.json',
  ],
  // A native module cannot be loaded from inside the asar archive; main looks in app.asar.unpacked.
  asarUnpack: ['native/electron/**'],
  // native/electron is already built for this Electron (`npm run dist` runs scripts/native-build.mjs
  // first); electron-builder's own rebuild would compile node_modules' copy, which the app never loads.
  npmRebuild: false,
  nodeGypRebuild: false,
  icon: 'build/icon.png',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    synopsis: 'Test webhooks end to end',
    maintainer: 'Hookloop contributors <hookloop@users.noreply.github.com>',
    executableName: 'hookloop',
  },
  mac: { target: 'dmg', category: 'public.app-category.developer-tools' },
  win: { target: 'nsis' },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true },
  artifactName: '${productName}-${version}-${os}-${arch}.${ext}',
  // Built installers are uploaded by the workflow, never published from here.
  publish: null,
}
