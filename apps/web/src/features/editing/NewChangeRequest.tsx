/**
 * "New change request": starts a fresh change request in a space (GitBook's createChangeRequest,
 * with an optional subject) and opens it in the editor, beside "Edit", which starts one on the
 * page it is on. From an organization's page, the person picks the space first.
 */
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import "./editing.css"
import { PlusIcon } from "../../ui/icons.tsx"

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
  if (!open) return <button type="button" className="button" onClick={() => setOpen(true)}><PlusIcon />New change request</button>
  return <NewChangeRequestForm spaces={undefined} spaceId={props.spaceId} pagePath={props.pagePath} onCancel={() => setOpen(false)} />
}

/** "New change request" on an organization's page: in one of the spaces the person may edit. */
export const NewChangeRequestInOrganization = (props: { readonly spaces: ReadonlyArray<{ readonly id: string; readonly title: string; readonly canEdit: boolean }> }) => {
  const [open, setOpen] = useState(false)
  const editable = props.spaces.filter((space) => space.canEdit)
  // Nobody is offered what the API would refuse: without a space they may edit, there is no button.
  if (editable.length === 0) return null
  if (!open) return <button type="button" className="button" onClick={() => setOpen(true)}><PlusIcon />New change request</button>
  return <NewChangeRequestForm spaces={editable} spaceId={editable[0]!.id} onCancel={() => setOpen(false)} />
}

/** The form: a subject, and the space when there is a choice; submitted, the new change request opens. */
export const NewChangeRequestForm = (props: {
  /** The spaces to choose from; undefined: `spaceId` alone. */
  readonly spaces: ReadonlyArray<{ readonly id: string; readonly title: string }> | undefined
  readonly spaceId: string
  readonly pagePath?: string | undefined
  readonly onCancel: () => void
}) => {
  const create = useMutation(createChangeRequest)
  const [spaceId, setSpaceId] = useState(props.spaceId)
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
    create({ params: { spaceId }, payload: trimmed === "" ? {} : { subject: trimmed }, reactivityKeys: [`space:${spaceId}`] }).then(
      (created) => navigate(`/s/${spaceId}/~/changes/${created.number}/${props.pagePath ?? ""}`),
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
      {props.spaces === undefined ? null : (
        <div className="field">
          <label htmlFor="new-cr-space">Space</label>
          <select id="new-cr-space" value={spaceId} onChange={(event) => setSpaceId(event.target.value)}>
            {props.spaces.map((space) => <option key={space.id} value={space.id}>{space.title}</option>)}
          </select>
        </div>
      )}
      <Field label="Subject (optional)" name="subject" value={subject} onChange={setSubject} error={subjectError}
        hint="What the change is about; you can change it later." autoFocus />
      <FormActions error={error} busy={busy} label="Start editing" busyLabel="Starting…" onCancel={props.onCancel} />
    </form>
  )
}
