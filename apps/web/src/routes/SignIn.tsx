/** `/sign-in`: email and password; a wrong pair is said under the password, plainly. */
import { type FormEvent, useState } from "react"
import { signIn } from "../api/auth.ts"
import { useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { navigate } from "../router.ts"
import { Field } from "../ui/Field.tsx"
import { useAuthForm } from "./useAuthForm.ts"

export const SignIn = (props: { readonly next: string | undefined }) => {
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const refresh = useRefresh()
  const { busy, errors, submit } = useAuthForm(["email", "password"], (_, status) => (status === 401 ? "password" : undefined))
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    void submit(async () => {
      await signIn(email, password)
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
      </main>
    </div>
  )
}
