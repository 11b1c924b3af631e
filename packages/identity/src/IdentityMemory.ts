/** The state shared by the in-memory identity adapters, so that they see each other's writes. */
import { Context, Layer } from "effect"
import type { Roles } from "@quire/kernel"
import type { ApiToken, LinkInvite, Organization, User } from "./domain/Identity.ts"

export interface MemberRow {
  readonly organizationId: string
  readonly userId: string
  role: Roles.MemberRole | null
  readonly joinedAt: Date
  lastSeenAt: Date | null
  sso: boolean
  readonly disabled: boolean
}

export interface TeamRow {
  readonly id: string
  readonly organizationId: string
  title: string
  readonly createdAt: Date
  readonly members: Map<string, "owner" | "member">
}

export interface EmailInviteRow {
  readonly organizationId: string
  readonly email: string
  readonly role: Roles.MemberRole | null
  readonly sso: boolean
  readonly createdAt: Date
}

export class IdentityMemory extends Context.Service<IdentityMemory, {
  readonly users: Map<string, User>
  readonly tokens: Map<string, ApiToken>
  readonly organizations: Map<string, Organization>
  /** Keyed by `${organizationId}/${userId}`. */
  readonly members: Map<string, MemberRow>
  readonly teams: Map<string, TeamRow>
  readonly linkInvites: Map<string, LinkInvite>
  readonly emailInvites: Array<EmailInviteRow>
}>()("@quire/identity/IdentityMemory") {
  static readonly layer = Layer.sync(IdentityMemory, () =>
    IdentityMemory.of({
      users: new Map(),
      tokens: new Map(),
      organizations: new Map(),
      members: new Map(),
      teams: new Map(),
      linkInvites: new Map(),
      emailInvites: []
    }))
}

export const memberKey = (organizationId: string, userId: string): string => `${organizationId}/${userId}`
