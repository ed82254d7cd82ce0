// Rows that name a process on this machine (a receiver's presence, a delivery's claim) outlive it
// when it dies: whether that process still runs tells a live row from a left-over one.

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
