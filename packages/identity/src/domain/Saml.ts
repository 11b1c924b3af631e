/** SAML single sign-on providers of an organization. */
import { Schema } from "effect"
import type { Roles } from "@quire/kernel"

/** `active` once the provider can sign people in, else `pending`. */
export const SamlStatus = Schema.Literals(["active", "pending"])
export type SamlStatus = typeof SamlStatus.Type

export interface SamlProvider {
  readonly id: string
  readonly organizationId: string
  readonly label: string
  readonly entityID: string | null
  readonly ssoURL: string | null
  /** PEM-encoded X.509 certificate of the identity provider. */
  readonly certificate: string | null
  readonly defaultTeamId: string | null
  readonly defaultRole: Roles.MemberRole | null
  readonly createdAt: Date
}

/** A provider signs people in once its endpoint, entity id and certificate are all known. */
export const samlStatus = (provider: SamlProvider): SamlStatus =>
  provider.entityID !== null && provider.ssoURL !== null && provider.certificate !== null ? "active" : "pending"

export type SamlProviderPatch = Partial<{
  readonly label: string
  readonly entityID: string
  readonly ssoURL: string
  readonly certificate: string
  readonly defaultTeamId: string | null
  readonly defaultRole: Roles.MemberRole | null
}>

/** A SAML response Quire does not accept (unsigned, wrongly signed, expired, replayed, for another audience...). */
export class SamlRejected extends Schema.TaggedError<SamlRejected>()("SamlRejected", {
  reason: Schema.String
}) {
  override get message(): string {
    return `The SAML response was refused: ${this.reason}`
  }
}
