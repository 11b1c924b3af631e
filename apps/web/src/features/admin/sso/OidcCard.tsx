/** One OpenID Connect provider: what it is, a test sign-in, change (its form) and delete. */
import type { OidcProvider, Organization } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { roleName } from "../problems.ts"
import { ssoKey } from "../queries.ts"
import { deleteOidc } from "./mutations.ts"
import { TestSignIn } from "./TestSignIn.tsx"
import { DeleteProvider } from "./DeleteProvider.tsx"
import { OidcForm } from "./OidcForm.tsx"

export interface OidcCardProps {
  readonly org: Organization
  readonly provider: OidcProvider
  readonly onStatus: (message: string) => void
}

export const OidcCard = (props: OidcCardProps) => {
  const { org, provider } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteOidc)
  return (
    <li className="team-card sso-card">
      <div className="team-head">
        <h3>{provider.label}</h3>
        <span className="muted small">OpenID Connect · signs up people as {roleName(provider.defaultRole)}</span>
      </div>
      <dl className="admin-facts">
        <dt>Discovery URL</dt><dd>{provider.discoveryURL}</dd>
        <dt>Client ID</dt><dd>{provider.clientId}</dd>
        <dt>Client secret</dt><dd>{provider.clientSecretSet ? "Stored (never shown)" : "None"}</dd>
        <dt>Scopes</dt><dd>{["openid", "email", "profile", ...provider.scopes].join(" ")}</dd>
      </dl>
      {editing ? (
        <OidcForm org={org} provider={provider} onCancel={() => setEditing(false)} onDone={(message) => { setEditing(false); props.onStatus(message) }} />
      ) : (
        <div className="row-actions">
          <TestSignIn startURL={provider.service.startURL} label={provider.label} />
          <button type="button" onClick={() => setEditing(true)}>Change<span className="visually-hidden"> {provider.label}</span></button>
          <DeleteProvider label={provider.label} kind="OpenID Connect"
            onDelete={async () => {
              await remove({ params: { organizationId: org.id, oidcProviderId: provider.id }, reactivityKeys: [ssoKey(org.id)] })
              props.onStatus(`Deleted the OpenID Connect provider ${provider.label}.`)
            }}>
            <p>People can no longer sign in with it, and its client secret is erased. Accounts it created stay.</p>
          </DeleteProvider>
        </div>
      )}
    </li>
  )
}
