/**
 * "Organizations you can join": those that allow the signed-in person's email domain and that they
 * are not in yet, each with a Join button (GitBook's `joinOrganization`); joining opens the
 * organization's home. Shown only once the person's email is verified (the server refuses
 * otherwise); nothing at all when no organization claims their domain.
 */
import { Atom, AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import { navigate } from "../../router.ts"
import { refusalOf } from "../../ui/refusal.ts"

const joinOrganization = QuireApi.mutation("organizations", "joinOrganization")

/** The organizations claiming a domain, as the person sees them (a member's with their permissions). */
const offersFor = Atom.family((domain: string) =>
  QuireApi.query("organizations", "getOrganizationsForEmailDomain", { params: { emailDomain: domain }, reactivityKeys: ["orgs"] }))

const Offers = (props: { readonly domain: string }) => {
  const offers = useAtomValue(offersFor(props.domain))
  const join = useMutation(joinOrganization)
  const [busy, setBusy] = useState<string | undefined>(undefined)
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({})
  if (!AsyncResult.isSuccess(offers)) return null
  const joinable = offers.value.organizations.filter((o) => !o.permissions.view)
  if (joinable.length === 0) return null
  const onJoin = async (organizationId: string) => {
    setBusy(organizationId)
    setErrors((current) => ({ ...current, [organizationId]: "" }))
    try {
      await join({ params: { organizationId }, reactivityKeys: ["orgs"] })
      navigate(`/o/${organizationId}`)
    } catch (cause) {
      const refusal = refusalOf(cause)
      setErrors((current) => ({ ...current, [organizationId]: refusal === undefined ? "The server could not be reached: try again." : refusal.message }))
      setBusy(undefined)
    }
  }
  return (
    <section className="joinable" aria-labelledby="joinable-heading">
      <h2 id="joinable-heading">Organizations you can join</h2>
      <p className="muted">They let people with an address at {props.domain} join.</p>
      <ul>
        {joinable.map((o) => (
          <li key={o.id}>
            <span className="joinable-title">{o.title}</span>
            <button type="button" className="primary" disabled={busy !== undefined} aria-describedby={errors[o.id] ? `join-error-${o.id}` : undefined}
              onClick={() => void onJoin(o.id)}>
              {busy === o.id ? "Joining…" : <>Join<span className="visually-hidden"> {o.title}</span></>}
            </button>
            {errors[o.id] ? <p id={`join-error-${o.id}`} className="form-error" role="alert">{errors[o.id]}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

export const JoinableOrganizations = () => {
  const session = useAtomValue(sessionAtom)
  if (!AsyncResult.isSuccess(session) || !session.value.signedIn) return null
  const user = session.value.info.user
  const domain = user.email.split("@").pop()?.toLowerCase() ?? ""
  if (user.emailVerified !== true || domain === "") return null
  return <Offers domain={domain} />
}
