/**
 * "New change request": starts a fresh change request in a space (GitBook's createChangeRequest,
 * with an optional subject) and opens it in the editor, beside "Edit", which reuses the person's
 * latest draft.
 */
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import "./editing.css"

const createChangeRequest = QuireApi.mutation("changeRequests", "createChangeRequest")

/** GitBook's bound on a subject (the server checks it too). */
const maxSubject = 100

interface NewChangeRequestProps {
  readonly spaceId: string
  /** Whether the person may edit the space; the button says why not otherwise. */
  readonly canEdit: boolean
  /** The page to open the new change request on ("" for the space's first). */
  readonly pagePath?: string
}

export const NewChangeRequest = (props: NewChangeRequestProps) => {
  const [open, setOpen] = useState(false)
  if (!props.canEdit) {
    return (
      <span className="new-cr">
        <button type="button" className="button" disabled aria-describedby={`new-cr-why-${props.spaceId}`}>New change request</button>
        <span id={`new-cr-why-${props.spaceId}`} className="muted"> Your role in this space does not let you edit it.</span>
      </span>
    )
  }
  if (!open) return <button type="button" className="button" onClick={() => setOpen(true)}>New change request</button>
  return <NewChangeRequestForm {...props} onCancel={() => setOpen(false)} />
}

const NewChangeRequestForm = (props: NewChangeRequestProps & { readonly onCancel: () => void }) => {
  const create = useMutation(createChangeRequest)
  const [subject, setSubject] = useState("")
  const [busy, setBusy] = useState(false)
  const [subjectError, setSubjectError] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setSubjectError(undefined)
    setError(undefined)
    const trimmed = subject.trim()
    if (trimmed.length > maxSubject) {
      setSubjectError(`A subject has at most ${maxSubject} characters; this one has ${trimmed.length}.`)
      return
    }
    setBusy(true)
    create({ params: { spaceId: props.spaceId }, payload: trimmed === "" ? {} : { subject: trimmed }, reactivityKeys: [`space:${props.spaceId}`] }).then(
      (created) => navigate(`/s/${props.spaceId}/~/changes/${created.number}/${props.pagePath ?? ""}`),
      (failure: unknown) => {
        setBusy(false)
        const refusal = refusalOf(failure)
        if (refusal?.field === "subject") setSubjectError(refusal.message)
        else setError(`Could not start a change request: ${refusal?.message ?? "no answer from the server"}`)
      }
    )
  }
  return (
    <form className="new-cr-form panel" onSubmit={onSubmit} aria-label="New change request">
      <Field label="Subject (optional)" name="subject" value={subject} onChange={setSubject} error={subjectError}
        hint="What the change is about; you can change it later." autoFocus />
      <FormActions error={error} busy={busy} label="Start editing" busyLabel="Starting…" onCancel={props.onCancel} />
    </form>
  )
}
