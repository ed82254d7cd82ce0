// The name of the SQLite file in a data folder. The Electron shell, the CLI, `hookloop serve` and
// hookloop/testing all find the database by it, so it is written in one place. This module
// imports nothing: the shell reads it without bundling the store.
export const DATA_FILE_NAME = 'hookloop.db'
