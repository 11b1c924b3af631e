/** Following a server job: a query read again on a timer while the job runs, and no longer. */
import type { Atom } from "effect/reactivity"
import { useEffect } from "react"
import { useRefresh } from "./react.ts"

/** Reads `atom` again every `everyMs` while `active` (a spec processing, a translation running). */
export const usePolling = <A>(atom: Atom.Atom<A>, active: boolean, everyMs = 1_000) => {
  const refresh = useRefresh()
  useEffect(() => {
    if (!active) return
    const timer = window.setInterval(() => refresh(atom), everyMs)
    return () => window.clearInterval(timer)
  }, [atom, active, everyMs, refresh])
}
