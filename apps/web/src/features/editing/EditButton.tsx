/** "Edit" on a page of a space (or another label): opens the person's change request on that page (or starts one). */
import { useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { openOrReuseChangeRequest } from "./content.ts"

export const EditButton = (props: { readonly spaceId: string; readonly pagePath: string; readonly label?: string }) => {
  const registry = useRegistry()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const onClick = () => {
    setBusy(true)
    setError(undefined)
    callApi(registry, openOrReuseChangeRequest(props.spaceId)).then(
      (number) => navigate(`/s/${props.spaceId}/~/changes/${number}/${props.pagePath}`),
      (failure: unknown) => {
        setBusy(false)
        setError(`Could not open a change request: ${failure instanceof Error ? failure.message : String(failure)}`)
      }
    )
  }
  return (
    <span className="edit-button">
      <button type="button" className="button" onClick={onClick} disabled={busy} aria-busy={busy}>{busy ? "Opening…" : props.label ?? "Edit"}</button>
      {error === undefined ? null : <span role="alert" className="form-error">{error}</span>}
    </span>
  )
}
