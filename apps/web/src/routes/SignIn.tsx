/** `/sign-in`: email and password; a wrong pair is said under the password, plainly. */
import { type FormEvent, useState } from "react"
import { AuthError, signIn } from "../api/auth.ts"
import { useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { navigate } from "../router.ts"
import { Field } from "../ui/Field.tsx"
import { EmailSso, OrganizationSso } from "./SingleSignOn.tsx"
import { useAuthForm } from "./useAuthForm.ts"

/** The organization of a `?org=` sign-in link (docs/sso.md). */
const linkedOrganization = () => new URLSearchParams(window.location.search).get("org") ?? undefined

export const SignIn = (props: { readonly next: string | undefined }) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const refresh = useRefresh()
  // The organization whose single sign-on to offer: a `?org=` link's, or the one that refused the password.
  const [ssoOrg, setSsoOrg] = useState(linkedOrganization)
  const { busy, errors, submit } = useAuthForm(["email", "password"], (_, status) => (status === 401 ? "password" : undefined))
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    void submit(async () => {
      try {
        await signIn(email, password)
      } catch (error) {
        if (error instanceof AuthError && error.sso !== undefined) setSsoOrg(error.sso.organizationId)
        throw error
      }
      refresh(sessionAtom)
      navigate(props.next ?? "/", { replace: true })
    })
  }
  return (
    <div className="auth">
      <main className="auth-card">
        <p className="brand">Quire</p>
        <h1>Sign in</h1>
        <form onSubmit={onSubmit} noValidate>
          {errors.form === undefined ? null : <p className="form-error" role="alert">{errors.form}</p>}
          <Field label="Email" name="email" type="email" value={email} onChange={setEmail} error={errors.fields["email"]} autoComplete="username" autoFocus required />
          <Field label="Password" name="password" type="password" value={password} onChange={setPassword} error={errors.fields["password"]} autoComplete="current-password" required />
          <button type="submit" className="primary" disabled={busy}>{busy ? "Signing in…" : "Sign in"}</button>
        </form>
        {ssoOrg === undefined ? null : <OrganizationSso org={ssoOrg} next={props.next} />}
        <EmailSso next={props.next} />
      </main>
    </div>
  )
}
