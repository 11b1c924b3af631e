/** The organization's providers (SAML, then OpenID Connect) and the enforcement switch, read together. */
import type { Organization } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import { oidcProvidersAtom, samlProvidersAtom } from "../queries.ts"
import { SamlSection } from "./SamlSection.tsx"
import { OidcSection } from "./OidcSection.tsx"
import { Enforcement } from "./Enforcement.tsx"

export interface ProvidersProps {
  readonly org: Organization
}

export const Providers = (props: ProvidersProps) => {
  const saml = useAtomValue(samlProvidersAtom(props.org.id))
  const oidc = useAtomValue(oidcProvidersAtom(props.org.id))
  if (AsyncResult.isFailure(saml)) return <Failure result={saml} />
  if (AsyncResult.isFailure(oidc)) return <Failure result={oidc} />
  if (!AsyncResult.isSuccess(saml) || !AsyncResult.isSuccess(oidc)) return <Loading what="the providers" />
  const usable = saml.value.items.filter((provider) => provider.status === "active").length + oidc.value.items.length
  return (
    <>
      <Enforcement org={props.org} providers={usable} />
      <SamlSection org={props.org} providers={saml.value.items} />
      <OidcSection org={props.org} providers={oidc.value.items} />
    </>
  )
}
