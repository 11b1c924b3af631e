/**
 * The one header of a change request's two screens, its editor and its review (one place, as
 * GitBook's is): number, subject, description, links, state and its moves, "Edit" / "Review" as tabs (links, the one
 * shown marked with aria-current; Review counts the threads still open), and "Preview" where a
 * published site shows the space.
 */
import type { ChangeRequest } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import type { ReactNode } from "react"
import { spaceAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { crCommentsAtom } from "../review/queries.ts"
import type { ThreadData } from "../review/Threads.tsx"
import { ChangePreview } from "../sites/ChangePreview.tsx"
import { AgentDetails } from "./AgentDetails.tsx"
import { Description } from "./Description.tsx"
import { Links } from "./Links.tsx"
import { StatusActions } from "./StatusActions.tsx"
import { Subject } from "./Subject.tsx"
import "./change-request.css"

export const ChangeRequestHeader = (props: {
  readonly spaceId: string
  readonly cr: ChangeRequest
  /** The screen shown: the editor names the change request in its heading and edits the subject; the review's heading is the subject. */
  readonly view: "edit" | "review"
  /** Whether the subject may be edited (a draft or open change request, on its editor). */
  readonly editable: boolean
  readonly onChanged: () => void
  readonly children?: ReactNode
}) => {
  const { cr } = props
  const space = useAtomValue(spaceAtom(props.spaceId))
  const canEdit = AsyncResult.isSuccess(space) && space.value.permissions.edit
  const base = `/s/${props.spaceId}/~/changes/${cr.number}`
  // The change request's threads not yet resolved, on the Review tab: the same read as the review's.
  const comments = useAtomValue(crCommentsAtom(`${props.spaceId}\n${cr.number}`))
  const open = AsyncResult.isSuccess(comments) ? (comments.value as ReadonlyArray<ThreadData>).filter((t) => t.comment.status !== "resolved").length : 0
  const subject = cr.subject === undefined || cr.subject === "" ? "Untitled change request" : cr.subject
  return (
    <header className="cr-head">
      <div className="cr-head-title">
        {props.view === "edit"
          ? (
            <>
              <h1 className="cr-head-number">Change request #{cr.number}</h1>
              {props.editable ? <Subject key={`${cr.id}:${cr.subject ?? ""}`} spaceId={props.spaceId} cr={cr} onSaved={props.onChanged} /> : <p className="cr-head-subject">{subject}</p>}
            </>
          )
          : (
            <>
              <p className="cr-head-number">Change request #{cr.number}</p>
              <h1 className="cr-head-subject">{subject}</h1>
            </>
          )}
        <Description spaceId={props.spaceId} cr={cr} canEdit={canEdit && (cr.status === "draft" || cr.status === "open")} onSaved={props.onChanged} />
        {props.view === "edit" && props.editable && canEdit ? <AgentDetails spaceId={props.spaceId} cr={cr} onWritten={props.onChanged} /> : null}
        <Links spaceId={props.spaceId} cr={cr} canEdit={canEdit && (cr.status === "draft" || cr.status === "open")} onSaved={props.onChanged} />
      </div>
      <div className="cr-head-bar">
        <nav className="tabs cr-tabs" aria-label="Change request">
          <Link href={base} aria-current={props.view === "edit" ? "page" : undefined}>Edit</Link>
          <Link href={`${base}/~/review`} aria-current={props.view === "review" ? "page" : undefined}>
            Review
            {open === 0 ? null : <><span className="cr-tab-count" aria-hidden="true" data-testid="open-threads">{open}</span><span className="visually-hidden">, {open} open {open === 1 ? "thread" : "threads"}</span></>}
          </Link>
        </nav>
        <StatusActions spaceId={props.spaceId} cr={cr} canEdit={canEdit} onChanged={props.onChanged} />
        <ChangePreview spaceId={props.spaceId} changeRequestId={cr.id} status={cr.status} />
      </div>
      {props.children}
    </header>
  )
}
