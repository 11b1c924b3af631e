/** A change request's subject, edited in place where it may change (saved when the field is left), with the server's refusal under it. */
import type { ChangeRequest } from "@quire/api"
import { useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { messageOf } from "../../ui/States.tsx"
import { updateChangeRequest } from "../editing/content.ts"

export const Subject = (props: { readonly spaceId: string; readonly cr: ChangeRequest; readonly onSaved: () => void }) => {
  const registry = useRegistry()
  const [error, setError] = useState<string | undefined>(undefined)
  const save = (value: string) => {
    if (value === (props.cr.subject ?? "")) return
    callApi(registry, updateChangeRequest(props.spaceId, props.cr.number, { subject: value })).then(
      () => { setError(undefined); props.onSaved() },
      (failure: unknown) => setError(`Could not rename: ${messageOf(failure)}`)
    )
  }
  return (
    <>
      <input className="cr-subject" aria-label="Change request subject" defaultValue={props.cr.subject ?? ""} placeholder="Subject"
        aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : "cr-subject-error"}
        onBlur={(e) => save(e.target.value.trim())} onKeyDown={(e) => { if (e.key === "Enter") e.currentTarget.blur() }} />
      {error === undefined ? null : <p id="cr-subject-error" className="form-error" role="alert">{error}</p>}
    </>
  )
}
