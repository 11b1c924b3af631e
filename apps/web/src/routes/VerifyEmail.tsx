/** `/verify-email?token=...`: the landing page of the link that confirms a person's email. */
import { useEffect, useState } from "react"
import { confirmEmail } from "../api/auth.ts"
import { useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { Link } from "../ui/Link.tsx"
import { errorsOf } from "./useAuthForm.ts"

export const VerifyEmail = (props: { readonly token: string }) => {
  const [state, setState] = useState<{ readonly email: string } | { readonly problem: string } | undefined>(undefined)
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
  }, [props.token])
  return (
    <div className="auth">
      <main className="auth-card">
        <p className="brand">Quire</p>
        <h1>Confirm your email</h1>
        {state === undefined ? <p role="status">Confirming…</p> : "problem" in state
          ? <p className="form-error" role="alert">{state.problem}</p>
          : <p role="status">Thank you: {state.email} is confirmed. Invitations sent to it are now offered to you.</p>}
        <p><Link href="/">Go to Quire</Link></p>
      </main>
    </div>
  )
}
