/**
 * `/new-organization`, and `/` for a signed-in person in no organization: "Create your
 * organization". A title (2 to 255 characters, as the API's), checked here first and then by the
 * server, whose refusal is said under the field; the new organization's home once it exists. A
 * person the server would refuse (QUIRE_ORG_CREATION=admins, or the per-person cap) is told why
 * instead of being offered the form.
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { JoinableOrganizations } from "./JoinableOrganizations.tsx"
import "./onboarding.css"

const createOrganization = QuireApi.mutation("organizations", "createOrganization")

/** What is wrong with a title before it is sent, in words; undefined when the server may have it. */
export const titleProblem = (title: string): string | undefined => {
  const value = title.trim()
  if (value === "") return "Give your organization a name."
  if (value.length < 2) return "Use at least 2 characters."
  if (value.length > 255) return `Use at most 255 characters: this name has ${value.length}.`
  return undefined
}

/** The server's refusal in words a person can act on. */
const refusalWords = (cause: unknown): string => {
  const refusal = refusalOf(cause)
  if (refusal === undefined) return "The server could not be reached: check your connection and try again."
  if (refusal.status === 403) return `You cannot create an organization: ${refusal.message}.`
  return refusal.message.charAt(0).toUpperCase() + refusal.message.slice(1)
}

export const CreateOrganization = (props: {
  /** The person has no organization yet (first run, or never invited): the screen says so. */
  readonly first: boolean
}) => {
  const session = useAtomValue(sessionAtom)
  const [title, setTitle] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const create = useMutation(createOrganization)
  const refresh = useRefresh()
  const creation = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.organizationCreation : undefined
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = titleProblem(title)
    setError(problem)
    if (problem !== undefined) return
    setBusy(true)
    try {
      const organization = await create({ payload: { title: title.trim() }, reactivityKeys: ["orgs"] })
      // The session says whether another may be created (the per-person cap).
      refresh(sessionAtom)
      navigate(`/o/${organization.id}`)
    } catch (cause) {
      setError(refusalWords(cause))
      setBusy(false)
    }
  }
  return (
    <section className="onboarding" aria-labelledby="create-org-heading">
      {props.first ? <p className="step">Welcome to Quire</p> : null}
      <h1 id="create-org-heading">Create your organization</h1>
      <p className="lead">
        {props.first ? "You are not in any organization yet. " : ""}
        An organization holds your spaces, collections and published sites, and the people who work on them. You will be its administrator.
      </p>
      <JoinableOrganizations />
      {creation !== undefined && !creation.allowed ? (
        <>
          <p className="form-error" role="alert">You cannot create an organization: {creation.reason}.</p>
          {props.first ? <p>Ask an administrator to invite you to theirs: the invitation arrives by email, or as a link to open.</p> : null}
        </>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Field label="Organization name" name="title" value={title} onChange={setTitle} error={error} autoFocus required
            hint="Your company, team or project, as people will see it. You can change it later." />
          <FormActions error={undefined} busy={busy} label="Create the organization" busyLabel="Creating…"
            {...(props.first ? {} : { onCancel: () => window.history.back() })} />
        </form>
      )}
    </section>
  )
}
