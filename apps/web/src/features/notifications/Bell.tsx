/**
 * The shell's link to the notifications, with the unread count: read again every 30 seconds while
 * the tab is shown, and when the window regains focus.
 */
import { AsyncResult } from "effect/reactivity"
import { useEffect } from "react"
import { useAtomValue, useRefresh } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { unreadCountAtom } from "./queries.ts"
import "./notifications.css"

/** How often the count is read again, in milliseconds. */
export const pollEvery = 30_000

const BellIcon = () => (
  <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
    <path d="M6 9a6 6 0 1 1 12 0c0 5 2 6.5 2 6.5H4S6 14 6 9zM10 19a2 2 0 0 0 4 0" />
  </svg>
)

export const Bell = () => {
  const count = useAtomValue(unreadCountAtom)
  const refresh = useRefresh()
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === "visible") refresh(unreadCountAtom)
    }
    const timer = window.setInterval(again, pollEvery)
    window.addEventListener("focus", again)
    document.addEventListener("visibilitychange", again)
    return () => {
      window.clearInterval(timer)
      window.removeEventListener("focus", again)
      document.removeEventListener("visibilitychange", again)
    }
  }, [refresh])
  const unread = AsyncResult.isSuccess(count) ? count.value : 0
  return (
    <Link className="bell" href="/notifications" title="Notifications">
      <BellIcon />
      <span className="visually-hidden">Notifications</span>
      {unread === 0 ? null : (
        <span className="bell-count">
          {unread > 99 ? "99+" : unread}
          <span className="visually-hidden"> unread</span>
        </span>
      )}
    </Link>
  )
}
