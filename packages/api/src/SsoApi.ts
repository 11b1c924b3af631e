/** SAML single sign-on providers of an organization. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
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
})
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
    }),
    HttpApiEndpoint.post("createOrganizationSAMLProvider", "/orgs/:organizationId/saml", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ label: Label, ...fields }),
      success: SamlProvider.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.get("getOrganizationSAMLProviderById", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      success: SamlProvider,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateOrganizationSAMLProvider", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      payload: Schema.Struct({ label: Schema.optionalKey(Label), ...fields }),
      success: SamlProvider,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.delete("deleteOrganizationSAMLProvider", "/orgs/:organizationId/saml/:samlProviderId", {
      params: providerPath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Where people start signing in with each active provider. */
    HttpApiEndpoint.get("listSSOProviderLoginsInOrganization", "/orgs/:organizationId/sso", {
      params: { organizationId: EntityId },
      success: Schema.Struct({
        items: Schema.Array(Schema.Struct({ id: Schema.String, label: Schema.String, startURL: Schema.String }))
      }),
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
