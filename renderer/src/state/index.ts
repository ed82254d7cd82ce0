// The door to the UI's state: the store (useApp) and each slice's types and commands.
export * from './app-store'
export * from './engine-mirror'
export * from './frame-applier'
export * from './hidden-arrivals'
export * from './row-verdicts'
export * from './timeline-rows'
export * from './toasts'
export * from './ui-choices'
