/** One SAML provider: what the IdP needs of Quire to copy, a test sign-in, change (its form) and delete. */
import type { Organization, SamlProvider } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { roleName } from "../problems.ts"
import { ssoKey } from "../queries.ts"
import { deleteSaml } from "./mutations.ts"
import { CopyField } from "./CopyField.tsx"
import { TestSignIn } from "./TestSignIn.tsx"
import { DeleteProvider } from "./DeleteProvider.tsx"
import { SpCertificate } from "./SpCertificate.tsx"
import { SamlForm } from "./SamlForm.tsx"

export interface SamlCardProps {
  readonly org: Organization
  readonly provider: SamlProvider
  readonly onStatus: (message: string) => void
}

export const SamlCard = (props: SamlCardProps) => {
  const { org, provider } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteSaml)
  const active = provider.status === "active"
  return (
    <li className="team-card sso-card">
      <div className="team-head">
        <h3>{provider.label}</h3>
        <span className={active ? "badge" : "badge warn"}>{active ? "Active" : "Incomplete"}</span>
        <span className="muted small">SAML · signs up people as {roleName(provider.defaultRole)}</span>
      </div>
      {active ? null : <p className="notice">Nobody can sign in with it yet: it needs the IdP's entity ID, sign-in URL and certificate. Give the IdP the details below, then add its metadata with “Change”.</p>}
      <div className="sso-for-idp">
        <h4>For your identity provider</h4>
        <CopyField label="SP entity ID (audience)" copy="Copy entity ID" value={provider.service.entityID} />
        <CopyField label="ACS URL (reply URL)" copy="Copy ACS URL" value={provider.service.acsURL} />
        <CopyField label="SP metadata URL" copy="Copy metadata URL" value={provider.service.metadataURL} />
        <SpCertificate metadataURL={provider.service.metadataURL} />
      </div>
      {active ? (
        <dl className="admin-facts">
          <dt>IdP entity ID</dt><dd>{provider.entityID}</dd>
          <dt>IdP sign-in URL</dt><dd>{provider.ssoURL}</dd>
        </dl>
      ) : null}
      {editing ? (
        <SamlForm org={org} provider={provider} onCancel={() => setEditing(false)} onDone={(message) => { setEditing(false); props.onStatus(message) }} />
      ) : (
        <div className="row-actions">
          {active ? <TestSignIn startURL={provider.service.startURL} label={provider.label} /> : null}
          <button type="button" onClick={() => setEditing(true)}>Change<span className="visually-hidden"> {provider.label}</span></button>
          <DeleteProvider label={provider.label} kind="SAML"
            onDelete={async () => {
              await remove({ params: { organizationId: org.id, samlProviderId: provider.id }, reactivityKeys: [ssoKey(org.id)] })
              props.onStatus(`Deleted the SAML provider ${provider.label}.`)
            }}>
            <p>People can no longer sign in with it. Accounts it created stay, and sign in with another provider or a password they set.</p>
          </DeleteProvider>
        </div>
      )}
    </li>
  )
}
