/** `/invite/<token>`: an invitation to an organization; a new account, or joining as the person signed in. */
import { type FormEvent, useEffect, useState } from "react"
import { acceptInvite, getInvite, type Invite as InviteInfo, signOut } from "../api/auth.ts"
import { useAtomValue, useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { navigate } from "../router.ts"
import { Field } from "../ui/Field.tsx"
import { errorsOf, useAuthForm } from "./useAuthForm.ts"
import { AsyncResult } from "effect/reactivity"

/** An organization role, as the invitation says it. */
const roleWords: Readonly<Record<string, string>> = {
  admin: "an administrator",
  create: "a creator",
  edit: "an editor",
  review: "a reviewer",
  comment: "a commenter",
  read: "a reader",
  guest: "a guest"
}

export const Invite = (props: { readonly token: string }) => {
  const [invite, setInvite] = useState<InviteInfo | { readonly problem: string } | undefined>(undefined)
  const [displayName, setDisplayName] = useState("")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const session = useAtomValue(sessionAtom)
  const signedIn = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info : undefined
  const refresh = useRefresh()
  const { busy, errors, submit } = useAuthForm(["displayName", "email", "password"])
  useEffect(() => {
    getInvite(props.token).then((found) => {
      setInvite(found)
      if (found.email !== undefined) setEmail(found.email)
    }, (error: unknown) => setInvite({ problem: errorsOf(error, []).form ?? "This invitation cannot be used." }))
  }, [props.token])
  // Signed in as someone other than the person the invitation names: theirs is not to accept.
  const otherEmail = signedIn !== undefined && invite !== undefined && "organization" in invite && invite.email !== undefined && signedIn.user.email.toLowerCase() !== invite.email.toLowerCase()
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    void submit(async () => {
      await acceptInvite(props.token, { displayName, email, password })
      refresh(sessionAtom)
      navigate(invite !== undefined && "organization" in invite ? `/o/${invite.organization.id}` : "/", { replace: true })
    })
  }
  return (
    <div className="auth">
      <main className="auth-card">
        <p className="brand">Quire</p>
        {invite === undefined ? <p role="status">Opening the invitation…</p> : "problem" in invite ? (
          <>
            <h1>Invitation</h1>
            <p className="form-error" role="alert">{invite.problem}</p>
          </>
        ) : (
          <>
            <h1>Join {invite.organization.title}</h1>
            <p className="muted">You are invited as {roleWords[invite.role] ?? `“${invite.role}”`}.</p>
            {invite.email === undefined || otherEmail ? null : invite.proof === true
              ? <p className="muted">This invitation came to {invite.email}: joining through it also confirms that this address is yours.</p>
              : <p className="muted">This invitation is for {invite.email}.</p>}
            {otherEmail ? (
              // Not theirs to accept: no Join that would only be refused; signing out, right here, is the way on.
              <>
                <p className="form-error" role="alert">You are signed in as {signedIn.user.email}, and this invitation is for {invite.email}: if that address is yours, sign out here to join with it.</p>
                <button type="button" className="primary" onClick={() => void signOut().then(() => refresh(sessionAtom))}>Sign out</button>
              </>
            ) : (
            <form onSubmit={onSubmit} noValidate>
              {errors.form === undefined ? null : <p className="form-error" role="alert">{errors.form}</p>}
              {signedIn === undefined ? (
                <>
                  <Field label="Your name" name="displayName" value={displayName} onChange={setDisplayName} error={errors.fields["displayName"]} autoComplete="name" autoFocus required />
                  <Field label="Email" name="email" type="email" value={email} onChange={setEmail} error={errors.fields["email"]} autoComplete="email" required />
                  <Field label="Password" name="password" type="password" value={password} onChange={setPassword} error={errors.fields["password"]} autoComplete="new-password" hint="At least 10 characters." required />
                </>
              ) : <p>You are signed in as {signedIn.user.email}.</p>}
              <button type="submit" className="primary" disabled={busy}>{busy ? "Joining…" : signedIn === undefined ? "Create the account and join" : "Join"}</button>
            </form>
            )}
          </>
        )}
      </main>
    </div>
  )
}
