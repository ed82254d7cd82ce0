export * from './consumer'
export * from './sender'
