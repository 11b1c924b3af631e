/** The organization's OpenID Connect providers, with "Add" (its form). */
import type { OidcProvider, Organization } from "@quire/api"
import { useState } from "react"
import { CopyField } from "./CopyField.tsx"
import { OidcForm } from "./OidcForm.tsx"
import { OidcCard } from "./OidcCard.tsx"

export interface OidcSectionProps {
  readonly org: Organization
  readonly providers: ReadonlyArray<OidcProvider>
}

export const OidcSection = (props: OidcSectionProps) => {
  const { org, providers } = props
  const [status, setStatus] = useState("")
  const redirectURL = providers[0]?.service.redirectURL ?? `${window.location.origin}/sso/oidc/callback`
  return (
    <section aria-labelledby="oidc-heading" className="admin-section">
      <h2 id="oidc-heading">OpenID Connect providers</h2>
      <span className="status" role="status">{status}</span>
      <CopyField label="Redirect URL to register at the provider" copy="Copy redirect URL" value={redirectURL} />
      {providers.length === 0 ? <p className="muted">No OpenID Connect provider yet.</p> : (
        <ul className="team-list">
          {providers.map((provider) => <OidcCard key={provider.id} org={org} provider={provider} onStatus={setStatus} />)}
        </ul>
      )}
      <h3>Add an OpenID Connect provider</h3>
      <OidcForm org={org} onDone={setStatus} />
    </section>
  )
}
