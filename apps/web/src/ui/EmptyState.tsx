/**
 * What a list shows when it has nothing in it, GitBook's way: an icon, a title, a sentence on what
 * would be here and how it comes, and the one action that fills it when there is one. `compact`
 * in a side panel or the sidebar; `status` when it answers something the person just did (a
 * filter, a search), so assistive technology says it.
 */
import type { ReactNode } from "react"

export const EmptyState = (props: {
  readonly icon: ReactNode
  readonly title: string
  readonly children?: ReactNode
  readonly action?: ReactNode
  readonly compact?: boolean
  readonly status?: boolean
}) => (
  <div className="empty-state" data-compact={props.compact === true ? "" : undefined} role={props.status === true ? "status" : undefined}>
    <span className="empty-state-icon">{props.icon}</span>
    <p className="empty-state-title">{props.title}</p>
    {props.children === undefined ? null : <p className="empty-state-text">{props.children}</p>}
    {props.action === undefined ? null : <div className="empty-state-action">{props.action}</div>}
  </div>
)
