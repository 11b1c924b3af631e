/**
 * A change request's state and what moves it on, as GitBook's: a draft is submitted for review
 * (open), an open or draft one archived, an archived one reopened for review; a merged one stays.
 * The moves are offered to those who may edit the space; the refusal is said beside them. A move
 * invalidates `space:<id>`, so the space's change request lists (the review's sidebar) move it to
 * its new status.
 */
import type { ChangeRequest } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../api/react.ts"
import { stateWords } from "../../ui/ChangeRequestState.tsx"
import { messageOf } from "../../ui/States.tsx"
import { updateCRById } from "../review/queries.ts"

export const StatusActions = (props: { readonly spaceId: string; readonly cr: ChangeRequest; readonly canEdit: boolean; readonly onChanged: () => void }) => {
  const update = useMutation(updateCRById)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const move = (status: "draft" | "open" | "archived") => {
    setBusy(true)
    update({ params: { spaceId: props.spaceId, changeRequestId: String(props.cr.number) }, payload: { status }, reactivityKeys: [`space:${props.spaceId}`] }).then(
      () => { setBusy(false); setError(undefined); props.onChanged() },
      (failure: unknown) => { setBusy(false); setError(`Could not change its state: ${messageOf(failure)}`) }
    )
  }
  const status = props.cr.status
  return (
    <div className="cr-head-state">
      <span className="crumb-state cr-status" data-status={status} data-testid="status">{stateWords[status] ?? status}</span>
      {!props.canEdit ? null : (
        <>
          {status === "draft" ? <button type="button" className="primary" disabled={busy} onClick={() => move("open")}>Submit for review</button> : null}
          {status === "draft" || status === "open" ? <button type="button" disabled={busy} onClick={() => move("archived")}>Archive</button> : null}
          {status === "archived" ? <button type="button" disabled={busy} onClick={() => move("open")}>Reopen</button> : null}
        </>
      )}
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
