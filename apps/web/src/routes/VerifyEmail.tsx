/** `/verify-email?token=...`: the landing page of the link that confirms a person's email. */
import { useEffect, useState } from "react"
import { confirmEmail } from "../api/auth.ts"
import { useAtomValue, useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { Link } from "../ui/Link.tsx"
import { errorsOf } from "./useAuthForm.ts"
import { AsyncResult } from "effect/reactivity"

export const VerifyEmail = (props: { readonly token: string }) => {
  const [state, setState] = useState<{ readonly email: string } | { readonly problem: string } | undefined>(undefined)
  const session = useAtomValue(sessionAtom)
  const signedIn = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info : undefined
  const refresh = useRefresh()
  useEffect(() => {
    // The link is used once: one confirmation per page load.
    confirmEmail(props.token).then((proven) => {
      setState(proven)
      refresh(sessionAtom)
    }, (error: unknown) => {
      const errors = errorsOf(error, ["token"])
      setState({ problem: errors.fields["token"] ?? errors.form ?? "This link cannot be used." })
    })
  }, [props.token, refresh])
  // A link used again by a person whose email is confirmed: nothing is wrong, nothing is left to do.
  const alreadyConfirmed = state !== undefined && "problem" in state && signedIn?.user.emailVerified === true
  return (
    <div className="auth">
      <main className="auth-card">
        <p className="brand">Quire</p>
        <h1>Confirm your email</h1>
        {state === undefined
          ? <p role="status">Confirming…</p>
          : alreadyConfirmed
          ? <p role="status">Your email {signedIn?.user.email} is confirmed already: this link is no longer needed.</p>
          : "problem" in state
          ? (
            <>
              <p className="form-error" role="alert">{/[.!?]$/.test(state.problem) ? state.problem : `${state.problem}.`}</p>
              <p className="muted">
                {signedIn === undefined
                  ? "Sign in, then choose “Send me a link” at the top of the page for a new one."
                  : "Choose “Send me a link” at the top of any page of Quire for a new one."}
              </p>
            </>
          )
          : <p role="status">Thank you: {state.email} is confirmed. Invitations sent to it are now offered to you.</p>}
        <p>{signedIn === undefined && state !== undefined && "problem" in state ? <Link href="/sign-in">Sign in</Link> : <Link href="/">Go to Quire</Link>}</p>
      </main>
    </div>
  )
}
