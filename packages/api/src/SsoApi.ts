/** SAML single sign-on providers of an organization. */
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
        description: "Lists the single sign-on providers a member of the organization can sign in with."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
