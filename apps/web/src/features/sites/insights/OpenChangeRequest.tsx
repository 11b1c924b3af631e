/** "Open a change request" on the page an insight is about: starts one and opens the page in it; a refusal is said beside the button. */
import { useState } from "react"
import { QuireApi } from "../../../api/client.ts"
import { useMutation } from "../../../api/react.ts"
import { navigate } from "../../../router.ts"
import { refusalOf } from "../../../ui/refusal.ts"

const createChangeRequest = QuireApi.mutation("changeRequests", "createChangeRequest")

export const OpenChangeRequest = (props: {
  readonly spaceId: string
  /** The page's path in its space; the space's first page when absent. */
  readonly pagePath?: string | undefined
  readonly subject: string
  /** What the button is about, for a screen reader (`on the page "Install"`). */
  readonly about: string
}) => {
  const create = useMutation(createChangeRequest)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const open = () => {
    setBusy(true)
    setError(undefined)
    create({ params: { spaceId: props.spaceId }, payload: { subject: props.subject.slice(0, 100) }, reactivityKeys: [`space:${props.spaceId}`] }).then(
      (created) => navigate(`/s/${props.spaceId}/~/changes/${created.number}/${props.pagePath ?? ""}`),
      (failure: unknown) => {
        setBusy(false)
        setError(`Could not open a change request: ${refusalOf(failure)?.message ?? "no answer from the server"}`)
      }
    )
  }
  return (
    <span className="insights-action">
      <button type="button" className="button small" onClick={open} disabled={busy} aria-label={`Open a change request ${props.about}`}>
        {busy ? "Opening…" : "Open a change request"}
      </button>
      {error === undefined ? null : <span className="field-error" role="alert">{error}</span>}
    </span>
  )
}
