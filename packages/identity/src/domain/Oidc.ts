/** OpenID Connect single sign-on providers of an organization (a Quire extension beside GitBook's SAML providers). */
import type { Roles } from "@quire/kernel"

export interface OidcProvider {
  readonly id: string
  readonly organizationId: string
  readonly label: string
  /** The issuer's URL, or its `/.well-known/openid-configuration` document. */
  readonly discoveryURL: string
  readonly clientId: string
  /** The client secret, sealed (`Sealed.seal`); never answered. */
  readonly clientSecret: string
  /** Scopes asked for besides `openid`. */
  readonly scopes: ReadonlyArray<string>
  readonly defaultTeamId: string | null
  readonly defaultRole: Roles.MemberRole | null
  readonly createdAt: Date
}

export type OidcProviderPatch = Partial<{
  readonly label: string
  readonly discoveryURL: string
  readonly clientId: string
  readonly clientSecret: string
  readonly scopes: ReadonlyArray<string>
  readonly defaultTeamId: string | null
  readonly defaultRole: Roles.MemberRole | null
}>

/**
 * A sign-in begun at a provider, kept until its callback (any replica may receive it) or its expiry.
 * Stored so that a dump's rows cannot complete it: the state only as its hash, the PKCE verifier sealed.
 */
export interface OidcRequest {
  /** The `Sealed.bearerHash` of the `state` sent to the provider: the request's key. */
  readonly stateHash: string
  readonly organizationId: string
  readonly providerId: string
  /** The PKCE code verifier, sealed under the instance secret. */
  readonly sealedCodeVerifier: string
  readonly nonce: string
  /** Where the browser goes afterwards, or a CLI's sealed request. */
  readonly relayState: string
  readonly expiresAt: Date
}
