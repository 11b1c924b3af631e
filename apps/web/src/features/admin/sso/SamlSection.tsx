/** The organization's SAML providers, with "Add" (its form). */
import type { Organization, SamlProvider } from "@quire/api"
import { useState } from "react"
import { SamlForm } from "./SamlForm.tsx"
import { SamlCard } from "./SamlCard.tsx"

export interface SamlSectionProps {
  readonly org: Organization
  readonly providers: ReadonlyArray<SamlProvider>
}

export const SamlSection = (props: SamlSectionProps) => {
  const [status, setStatus] = useState("")
  return (
    <section aria-labelledby="saml-heading" className="admin-section">
      <h2 id="saml-heading">SAML providers</h2>
      <span className="status" role="status">{status}</span>
      {props.providers.length === 0 ? <p className="muted">No SAML provider yet.</p> : (
        <ul className="team-list">
          {props.providers.map((provider) => <SamlCard key={provider.id} org={props.org} provider={provider} onStatus={setStatus} />)}
        </ul>
      )}
      <h3>Add a SAML provider</h3>
      <p className="muted">Save it with a name first if your identity provider needs Quire's ACS URL before it gives you its metadata; add the metadata later with “Change”.</p>
      <SamlForm org={props.org} onDone={setStatus} />
    </section>
  )
}
