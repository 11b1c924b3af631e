/** The state shared by the in-memory identity adapters, so that they see each other's writes. */
import { Context, Layer } from "effect"
import { MemoryStore, type NotificationKinds, type Roles } from "@quire/kernel"
import type { ApiToken, LinkInvite, MemberInvite, Organization, User } from "./domain/Identity.ts"
import type { StoredInstructions } from "./domain/AgentInstructions.ts"
import type { AttemptCount, SessionRow } from "./signin/SignInRows.ts"

export interface MemberRow {
  readonly organizationId: string
  readonly userId: string
  readonly role: Roles.MemberRole | null
  readonly joinedAt: Date
  readonly lastSeenAt: Date | null
  readonly sso: boolean
  readonly disabled: boolean
}

export interface TeamRow {
  readonly id: string
  readonly organizationId: string
  readonly title: string
  readonly createdAt: Date
  readonly members: MemoryStore.TxMap<string, "owner" | "member">
}

export type EmailInviteRow = MemberInvite

/** A link that proves an email: whose, which email, until when. */
export interface EmailVerificationRow {
  readonly userId: string
  readonly email: string
  readonly expiresAt: Date
}

export class IdentityMemory extends Context.Service<IdentityMemory, {
  readonly users: MemoryStore.TxMap<string, User>
  readonly tokens: MemoryStore.TxMap<string, ApiToken>
  readonly organizations: MemoryStore.TxMap<string, Organization>
  /** The creator of each organization, by organization id. */
  readonly organizationCreators: MemoryStore.TxMap<string, string>
  /** Keyed by `${organizationId}/${userId}`. */
  readonly members: MemoryStore.TxMap<string, MemberRow>
  readonly teams: MemoryStore.TxMap<string, TeamRow>
  readonly linkInvites: MemoryStore.TxMap<string, LinkInvite>
  /** Keyed by {@link emailInviteKey}. */
  readonly emailInvites: MemoryStore.TxMap<string, EmailInviteRow>
  /** Password hashes by user id. */
  readonly passwords: MemoryStore.TxMap<string, string>
  readonly sessions: MemoryStore.TxMap<string, SessionRow>
  readonly attempts: MemoryStore.TxMap<string, AttemptCount>
  /** The email each user proved, by user id (verified while it is still their email). */
  readonly verifiedEmails: MemoryStore.TxMap<string, string>
  /** Email verification links by the hash of their secret. */
  readonly emailVerifications: MemoryStore.TxMap<string, EmailVerificationRow>
  /** The notification kinds each user chose not to receive by email, by user id. */
  readonly emailOptOuts: MemoryStore.TxMap<string, ReadonlyArray<NotificationKinds.NotificationKind>>
  /** Each organization's agent instructions, by organization id, once set. */
  readonly agentInstructions: MemoryStore.TxMap<string, StoredInstructions>
}>()("@quire/identity/IdentityMemory") {
  static readonly layer = Layer.sync(IdentityMemory, () =>
    IdentityMemory.of({
      users: new MemoryStore.TxMap(),
      tokens: new MemoryStore.TxMap(),
      organizations: new MemoryStore.TxMap(),
      organizationCreators: new MemoryStore.TxMap(),
      members: new MemoryStore.TxMap(),
      teams: new MemoryStore.TxMap(),
      linkInvites: new MemoryStore.TxMap(),
      emailInvites: new MemoryStore.TxMap(),
      passwords: new MemoryStore.TxMap(),
      sessions: new MemoryStore.TxMap(),
      attempts: new MemoryStore.TxMap(),
      verifiedEmails: new MemoryStore.TxMap(),
      emailVerifications: new MemoryStore.TxMap(),
      emailOptOuts: new MemoryStore.TxMap(),
      agentInstructions: new MemoryStore.TxMap()
    }))
}

export const memberKey = (organizationId: string, userId: string): string => `${organizationId}/${userId}`

export const emailInviteKey = (organizationId: string, email: string): string => `${organizationId}/${email}`
