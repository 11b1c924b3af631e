/**
 * `/notifications`: what happened that concerns the signed-in person (review requests, replies,
 * mentions, merges), newest first, each in words and linked to where it happened; opening one
 * marks it read; "Mark all read" reads them all.
 */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue, useMutation } from "../api/react.ts"
import { markAllRead, markRead, type Notification, notificationsAtom, notificationsKey, spaceTitlesAtom, unreadCountAtom } from "../features/notifications/queries.ts"
import { describeNotification } from "../features/notifications/wording.ts"
import { useAction } from "../features/review/action.ts"
import { appPath, Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import "../features/notifications/notifications.css"
import { formatTime } from "../ui/time.ts"
import { EmptyState } from "../ui/EmptyState.tsx"
import { BellIcon } from "../ui/icons.tsx"


const Item = (props: { readonly notification: Notification; readonly spaceTitle: string | undefined }) => {
  const n = props.notification
  const mark = useMutation(markRead)
  const onOpen = () => {
    if (n.read) return
    // The link navigates at once; the mark lands meanwhile and the bell reads again.
    mark({ params: { notificationId: n.id }, payload: { read: true }, reactivityKeys: [notificationsKey] }).catch(() => undefined)
  }
  return (
    <li className={n.read ? "notification read" : "notification unread"}>
      <Link href={appPath(n.urls.app)} onClick={onOpen}>
        <span className="notification-dot" aria-hidden="true" />
        <span className="notification-body">
          <span className="notification-text">
            {describeNotification(n, props.spaceTitle)}
            {n.read ? null : <span className="visually-hidden"> (unread)</span>}
          </span>
          <span className="meta">{props.spaceTitle === undefined ? "" : `${props.spaceTitle} · `}<time dateTime={n.createdAt}>{formatTime(n.createdAt)}</time></span>
        </span>
      </Link>
    </li>
  )
}

/** One page of notifications from the cursor `page`; `onOlder` when another page follows. */
const Page = (props: { readonly page: string; readonly onOlder: ((next: string) => void) | undefined }) => {
  const list = useAtomValue(notificationsAtom(props.page))
  const spaceIds = AsyncResult.isSuccess(list) ? [...new Set(list.value.items.map((n) => n.space))].toSorted().join(",") : ""
  const titles = useAtomValue(spaceTitlesAtom(spaceIds))
  if (AsyncResult.isInitial(list)) return <Loading what="notifications" />
  if (AsyncResult.isFailure(list)) return <Failure result={list} />
  const items = list.value.items
  if (items.length === 0 && props.page === "") {
    return <EmptyState icon={<BellIcon size={20} />} title="No notifications yet">You will find here the reviews asked of you, replies to your comments, mentions of you and your merged change requests.</EmptyState>
  }
  const next = list.value.next?.page
  return (
    <>
      <ul className="notification-list">
        {items.map((n) => <Item key={n.id} notification={n} spaceTitle={AsyncResult.isSuccess(titles) ? titles.value.get(n.space) : undefined} />)}
      </ul>
      {next === undefined || props.onOlder === undefined ? null : (
        <button type="button" className="notification-older" onClick={() => props.onOlder?.(next)}>Show older</button>
      )}
    </>
  )
}

export const Notifications = () => {
  const [pages, setPages] = useState<ReadonlyArray<string>>([""])
  const count = useAtomValue(unreadCountAtom)
  const readAll = useMutation(markAllRead)
  const action = useAction()
  const [message, setMessage] = useState("")
  const unread = AsyncResult.isSuccess(count) ? count.value : 0
  const onReadAll = () =>
    action.run(async () => {
      await readAll({ reactivityKeys: [notificationsKey] })
      setMessage("All marked read.")
    })
  return (
    <section className="notifications" aria-labelledby="notifications-heading">
      <h1 id="notifications-heading">Notifications</h1>
      <div className="toolbar">
        <span className="muted">{unread === 0 ? "No unread notifications." : `${unread} unread`}</span>
        <button type="button" onClick={() => void onReadAll()} disabled={action.busy || unread === 0}
          aria-describedby={action.error === undefined ? undefined : "read-all-error"}>Mark all read</button>
        <span className="status" role="status">{message}</span>
        {action.error === undefined ? null : <p id="read-all-error" className="field-error" role="alert">{action.error}</p>}
      </div>
      {pages.map((page, index) => (
        <Page key={page === "" ? "first" : page} page={page}
          onOlder={index === pages.length - 1 ? (next) => setPages([...pages, next]) : undefined} />
      ))}
    </section>
  )
}
