// An Electron event object that listeners may prevent (will-navigate, will-quit…).
export function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
  }
}
