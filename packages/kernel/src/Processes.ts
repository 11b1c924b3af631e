/** The processes of this machine, as the owners of a data directory or a build lock are checked. */

/** Whether process `pid` still runs (one under another user too: signalling it is refused, EPERM, but it exists). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}
