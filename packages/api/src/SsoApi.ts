/** Single sign-on providers of an organization: SAML (GitBook's API) and OpenID Connect (a Quire extension shaped like it). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { SamlStatus } from "@quire/identity/domain/Saml"
import { EntityId, ListOf, MemberRoleOrGuest, PageQuery, Text, Timestamp, Url } from "./Schemas.ts"
import { Team } from "./TeamsApi.ts"

const Label = Text.check(Schema.isMinLength(1), Schema.isMaxLength(30))
const EntityID = Text.check(Schema.isMaxLength(1024))
const Certificate = Text.check(Schema.isMaxLength(10000))

export const SamlProvider = Schema.Struct({
  object: Schema.Literal("saml-provider"),
  id: Schema.String,
  label: Schema.String,
  ssoURL: Schema.String,
  entityID: Schema.String,
  certificate: Schema.String,
  defaultTeam: Schema.optionalKey(Team),
  defaultRole: MemberRoleOrGuest,
  createdAt: Timestamp,
  status: SamlStatus,
  /** Quire as the service provider: its ACS, where sign-in starts, its entity id and SP metadata XML. */
  service: Schema.Struct({ acsURL: Schema.String, startURL: Schema.String, entityID: Schema.String, metadataURL: Schema.String }),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "SamlProvider" })
export type SamlProvider = typeof SamlProvider.Type

const fields = {
  entityID: Schema.optionalKey(EntityID),
  certificate: Schema.optionalKey(Certificate),
  ssoURL: Schema.optionalKey(Url),
  defaultTeam: Schema.optionalKey(EntityId),
  defaultRole: Schema.optionalKey(MemberRoleOrGuest)
}

const providerPath = { organizationId: EntityId, samlProviderId: EntityId }

/** An OpenID Connect provider: its client secret is never answered (`clientSecretSet` says one is stored). */
export const OidcProvider = Schema.Struct({
  object: Schema.Literal("oidc-provider"),
  id: Schema.String,
  label: Schema.String,
  discoveryURL: Schema.String,
  clientId: Schema.String,
  clientSecretSet: Schema.Boolean,
  scopes: Schema.Array(Schema.String),
  defaultTeam: Schema.optionalKey(Team),
  defaultRole: MemberRoleOrGuest,
  createdAt: Timestamp,
  /** Quire as the client: where sign-in starts, and the redirect URL to register at the provider. */
  service: Schema.Struct({ startURL: Schema.String, redirectURL: Schema.String }),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "OidcProvider" })
export type OidcProvider = typeof OidcProvider.Type

const ClientId = Text.check(Schema.isMinLength(1), Schema.isMaxLength(512))
const ClientSecret = Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048))
/** An OAuth scope token (RFC 6749, 3.3). */
const Scope = Schema.String.check(Schema.isPattern(/^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/, { message: "must be a scope name: printable characters without spaces, quotes or backslashes" }))
const Scopes = Schema.Array(Scope).check(Schema.isMaxLength(20))

const oidcFields = {
  discoveryURL: Schema.optionalKey(Url),
  clientId: Schema.optionalKey(ClientId),
  clientSecret: Schema.optionalKey(ClientSecret),
  scopes: Schema.optionalKey(Scopes),
  defaultTeam: Schema.optionalKey(EntityId),
  defaultRole: Schema.optionalKey(MemberRoleOrGuest)
}

const oidcPath = { organizationId: EntityId, oidcProviderId: EntityId }

export class SsoApi extends HttpApiGroup.make("sso")
  .add(
    HttpApiEndpoint.get("listSAMLProvidersInOrganizationById", "/orgs/:organizationId/saml", {
      params: { organizationId: EntityId },
      query: PageQuery,
      success: ListOf(SamlProvider),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List SAML providers",
        description: "Lists the SAML identity providers configured for an organization. Needs the admin role."
      })),
    HttpApiEndpoint.post("createOrganizationSAMLProvider", "/orgs/:organizationId/saml", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ label: Label, ...fields }),
      success: SamlProvider.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add a SAML provider",
        description: "Configures a SAML identity provider for signing in to the organization. Needs the admin role."
      })),
    HttpApiEndpoint.get("getOrganizationSAMLProviderById", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      success: SamlProvider,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a SAML provider",
        description: "Answers one SAML provider's configuration. Needs the admin role."
      })),
    HttpApiEndpoint.patch("updateOrganizationSAMLProvider", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      payload: Schema.Struct({ label: Schema.optionalKey(Label), ...fields }),
      success: SamlProvider,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a SAML provider",
        description: "Changes a SAML provider's label, endpoints or certificate. Needs the admin role."
      })),
    HttpApiEndpoint.delete("deleteOrganizationSAMLProvider", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a SAML provider",
        description: "Removes a SAML provider; its members sign in with tokens only. Needs the admin role."
      })),
    HttpApiEndpoint.get("listOIDCProvidersInOrganizationById", "/orgs/:organizationId/oidc", {
      params: { organizationId: EntityId },
      query: PageQuery,
      success: ListOf(OidcProvider),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List OpenID Connect providers",
        description: "Quire's addition: lists the OpenID Connect identity providers configured for an organization. Client secrets are never answered. Needs the admin role."
      })),
    HttpApiEndpoint.post("createOrganizationOIDCProvider", "/orgs/:organizationId/oidc", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ label: Label, discoveryURL: Url, clientId: ClientId, clientSecret: ClientSecret, scopes: oidcFields.scopes, defaultTeam: oidcFields.defaultTeam, defaultRole: oidcFields.defaultRole }),
      success: OidcProvider.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add an OpenID Connect provider",
        description: "Quire's addition: configures an OpenID Connect provider (its issuer or discovery URL, the client id and secret Quire was registered with, extra scopes) for signing in to the organization. The discovery document is read at once: a URL or client it cannot use is a 400 naming `discoveryURL`. Register `service.redirectURL` at the provider. Needs the admin role."
      })),
    HttpApiEndpoint.get("getOrganizationOIDCProviderById", "/orgs/:organizationId/oidc/:oidcProviderId", {
      params: oidcPath,
      success: OidcProvider,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an OpenID Connect provider",
        description: "Quire's addition: answers one OpenID Connect provider's configuration, without its secret. Needs the admin role."
      })),
    HttpApiEndpoint.patch("updateOrganizationOIDCProvider", "/orgs/:organizationId/oidc/:oidcProviderId", {
      params: oidcPath,
      payload: Schema.Struct({ label: Schema.optionalKey(Label), ...oidcFields }),
      success: OidcProvider,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update an OpenID Connect provider",
        description: "Quire's addition: changes an OpenID Connect provider. A new `discoveryURL` or `clientId` comes with its `clientSecret`. Needs the admin role."
      })),
    HttpApiEndpoint.delete("deleteOrganizationOIDCProvider", "/orgs/:organizationId/oidc/:oidcProviderId", {
      params: oidcPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete an OpenID Connect provider",
        description: "Quire's addition: removes an OpenID Connect provider. Needs the admin role."
      })),
    /** Where people start signing in with each active provider. */
    HttpApiEndpoint.get("listSSOProviderLoginsInOrganization", "/orgs/:organizationId/sso", {
      params: { organizationId: EntityId },
      success: Schema.Struct({
        items: Schema.Array(Schema.Struct({ id: Schema.String, label: Schema.String, startURL: Schema.String }))
      }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List sign-in options",
        description: "Lists the single sign-on providers a member of the organization can sign in with: its active SAML providers, then (Quire's addition) its OpenID Connect providers."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
