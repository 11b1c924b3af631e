/**
 * Where a person who is not signed in finds their organization's single sign-on: by the
 * organization's id (a `?org=` link an admin hands out) or by their email's domain, among the
 * organizations that claim it (`emailDomains`). Only organizations with a provider to sign in
 * with are answered, with their title and providers: nothing about their content or members.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { OidcProvider } from "./domain/Oidc.ts"
import type { Organization } from "./domain/Identity.ts"
import type { SamlProvider } from "./domain/Saml.ts"
import { OidcProviders } from "./OidcProviders.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import { SamlProviders } from "./SamlProviders.ts"
import { emailDomainOf } from "./SsoProvisioning.ts"

/** An organization's ways to sign in: its active SAML providers, then its OpenID Connect ones. */
export interface SsoLogins {
  readonly organization: Organization
  readonly saml: ReadonlyArray<SamlProvider>
  readonly oidc: ReadonlyArray<OidcProvider>
}

export interface SsoDirectoryShape {
  readonly forOrganization: (organizationId: string) => Effect.Effect<Option.Option<SsoLogins>>
  readonly forEmail: (email: string) => Effect.Effect<ReadonlyArray<SsoLogins>>
}

export class SsoDirectory extends Context.Service<SsoDirectory, SsoDirectoryShape>()("@quire/identity/SsoDirectory") {
  static readonly layer = Layer.effect(
    SsoDirectory,
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const saml = yield* SamlProviders
      const oidc = yield* OidcProviders

      const loginsOf = Effect.fnUntraced(function*(organization: Organization) {
        const found = { organization, saml: yield* saml.logins(organization.id), oidc: yield* oidc.logins(organization.id) }
        return found.saml.length + found.oidc.length === 0 ? Option.none<SsoLogins>() : Option.some(found)
      })

      const forOrganization = Effect.fn("SsoDirectory.forOrganization")(function*(organizationId: string) {
        const organization = yield* organizations.find(organizationId)
        return Option.isNone(organization) ? Option.none<SsoLogins>() : yield* loginsOf(organization.value)
      })

      const forEmail = Effect.fn("SsoDirectory.forEmail")(function*(email: string) {
        const domain = emailDomainOf(email.trim())
        if (!email.includes("@") || domain === "") return []
        const claiming = yield* organizations.listByEmailDomain(domain, "")
        const found = yield* Effect.forEach(claiming, ({ organization }) => loginsOf(organization))
        return found.flatMap(Option.toArray)
      })

      return SsoDirectory.of({ forOrganization, forEmail })
    })
  )
}
