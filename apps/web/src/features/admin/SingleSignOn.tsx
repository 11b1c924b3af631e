/**
 * `/o/<org>/settings/sso`: an organization's single sign-on, for its admins (docs/sso.md). SAML
 * providers (`SsoApi`): created or changed from the IdP's metadata XML (pasted or uploaded, read by
 * `saml-metadata.ts`) or its fields, with what the IdP needs of Quire (entity ID, ACS URL, metadata
 * URL, the SP certificate) to copy, a test sign-in and delete. OpenID Connect providers: discovery
 * URL, client id, a client secret sent once and never shown, scopes; test sign-in, delete.
 * Enforcement: the organization's `sso` switch, with its email domains.
 */
import { AsyncResult } from "effect/reactivity"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { OrgTabs } from "./ui.tsx"
import { Providers } from "./sso/Providers.tsx"

export interface SingleSignOnProps {
  readonly organizationId: string
}

export const SingleSignOn = (props: SingleSignOnProps) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="settings/sso" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Single sign-on</h1>
      {org.value.permissions.admin
        ? <Providers org={org.value} />
        : <div className="panel"><p>Only administrators of {org.value.title} can set up single sign-on.</p></div>}
    </div>
  )
}

export default SingleSignOn
