/**
 * The sign-in screen's single sign-on: an organization's providers found by a `?org=` link, by a
 * password refused because the organization enforces single sign-on, or by a work email's domain
 * (docs/sso.md, `/sso/logins`). Each provider is a link that starts its sign-in.
 */
import { type FormEvent, useEffect, useState } from "react"
import { findSso, ssoStartPath, type SsoLogins } from "../api/auth.ts"
import { Field } from "../ui/Field.tsx"

const ProviderLinks = (props: { readonly found: ReadonlyArray<SsoLogins>; readonly next: string | undefined }) => (
  <ul className="sso-providers">
    {props.found.flatMap((logins) =>
      logins.providers.map((provider) => (
        <li key={provider.id}>
          <a className="button" href={ssoStartPath(provider.startURL, props.next)}>
            Sign in with {provider.label}
            {props.found.length > 1 ? <span className="muted"> ({logins.organization.title})</span> : null}
          </a>
        </li>
      ))
    )}
  </ul>
)

/** Providers of the organization `org` (a link, or the organization that refused a password). */
export const OrganizationSso = (props: { readonly org: string; readonly next: string | undefined }) => {
  const [found, setFound] = useState<ReadonlyArray<SsoLogins>>([])
  useEffect(() => {
    let live = true
    findSso({ org: props.org }).then((items) => live && setFound(items), () => live && setFound([]))
    return () => {
      live = false
    }
  }, [props.org])
  return found.length === 0 ? null : <ProviderLinks found={found} next={props.next} />
}

/** "Use single sign-on": a work email, then its organization's providers. */
export const EmailSso = (props: { readonly next: string | undefined }) => {
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState("")
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const [found, setFound] = useState<ReadonlyArray<SsoLogins>>([])
  if (!open) {
    return <button type="button" className="link sso-toggle" onClick={() => setOpen(true)}>Use single sign-on</button>
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      setError("Enter your work email, such as ada@example.com.")
      return
    }
    setBusy(true)
    findSso({ email: email.trim() }).then(
      (items) => {
        setFound(items)
        setError(items.length === 0 ? "No organization with single sign-on uses this email's domain. Ask your administrator for your organization's sign-in link." : undefined)
      },
      () => setError("The server could not look this email up. Try again.")
    ).finally(() => setBusy(false))
  }
  return (
    <section className="sso" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Single sign-on</h2>
      <form onSubmit={onSubmit} noValidate>
        <Field label="Work email" name="sso-email" type="email" value={email} onChange={setEmail} error={error} autoComplete="email" autoFocus required />
        <button type="submit" disabled={busy}>{busy ? "Looking up…" : "Continue"}</button>
      </form>
      {found.length === 0 ? null : <ProviderLinks found={found} next={props.next} />}
    </section>
  )
}
