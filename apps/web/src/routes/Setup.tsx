/**
 * `/setup`: the first run, making the instance administrator's account with the code the server
 * printed; then `/` offers the second step, creating their organization.
 */
import { type FormEvent, useState } from "react"
import { setup } from "../api/auth.ts"
import { useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { navigate } from "../router.ts"
import { Field } from "../ui/Field.tsx"
import { Link } from "../ui/Link.tsx"
import { useAuthForm } from "./useAuthForm.ts"

export const Setup = (props: { readonly open: boolean }) => {
  const [setupCode, setSetupCode] = useState("")
  const [displayName, setDisplayName] = useState("")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const refresh = useRefresh()
  const { busy, errors, submit } = useAuthForm(["setupCode", "displayName", "email", "password"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    void submit(async () => {
      await setup({ setupCode, displayName, email, password })
      refresh(sessionAtom)
      navigate("/", { replace: true })
    })
  }
  if (!props.open) {
    return (
      <div className="auth">
        <main className="auth-card">
          <p className="brand">Quire</p>
          <h1>Setup is done</h1>
          <p>This server already has its administrator. <Link href="/sign-in">Sign in</Link> instead.</p>
        </main>
      </div>
    )
  }
  return (
    <div className="auth">
      <main className="auth-card">
        <p className="brand">Quire</p>
        <h1>Set up Quire</h1>
        <p className="muted">Step 1 of 2: your account. Next, your organization.</p>
        <p className="muted">Make the administrator's account. The setup code is the token the server printed in its log when it first started.</p>
        <form onSubmit={onSubmit} noValidate>
          {errors.form === undefined ? null : <p className="form-error" role="alert">{errors.form}</p>}
          <Field label="Setup code" name="setupCode" value={setupCode} onChange={setSetupCode} error={errors.fields["setupCode"]} autoComplete="off" autoFocus required />
          <Field label="Your name" name="displayName" value={displayName} onChange={setDisplayName} error={errors.fields["displayName"]} autoComplete="name" required />
          <Field label="Email" name="email" type="email" value={email} onChange={setEmail} error={errors.fields["email"]} autoComplete="email" required />
          <Field label="Password" name="password" type="password" value={password} onChange={setPassword} error={errors.fields["password"]} autoComplete="new-password" hint="At least 10 characters." required />
          <button type="submit" className="primary" disabled={busy}>{busy ? "Setting up…" : "Create the account"}</button>
        </form>
      </main>
    </div>
  )
}
