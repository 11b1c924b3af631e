/** An audit event: who did what, to what, when, from where; and the actions Quire records. */
import { Schema } from "effect"

/** The actions recorded, each with the label a screen shows; an event's `action` is one of these ids. */
export const actions = {
  "auth.password.signed-in": "Signed in with a password",
  "auth.saml.signed-in": "Signed in with SAML single sign-on",
  "auth.oidc.signed-in": "Signed in with OpenID Connect single sign-on",
  "auth.password.failed": "Failed to sign in with a password",
  "auth.saml.failed": "Failed to sign in with SAML single sign-on",
  "auth.oidc.failed": "Failed to sign in with OpenID Connect single sign-on",
  "auth.password.changed": "Changed their password",
  "auth.session.ended": "Ended a sign-in session",
  "auth.sessions.ended": "Ended sign-in sessions at once",
  "token.created": "Created an API token",
  "token.revoked": "Revoked an API token",
  "organization.settings-changed": "Changed the organization's settings",
  "member.invited": "Invited a member",
  "member.joined": "Joined the organization",
  "member.removed": "Removed a member",
  "member.role-changed": "Changed a member's role",
  "invite-link.created": "Created an invite link",
  "invite-link.changed": "Changed an invite link",
  "site.permission-granted": "Granted a role on a site",
  "site.permission-changed": "Changed a role on a site",
  "site.permission-revoked": "Revoked a role on a site",
  "instance.admin-granted": "Made an instance administrator",
  "instance.admin-withdrawn": "Withdrew instance administration",
  "team.created": "Created a team",
  "team.renamed": "Renamed a team",
  "team.deleted": "Deleted a team",
  "team.member-added": "Added a member to a team",
  "team.member-removed": "Removed a member from a team",
  "permission.granted": "Granted a permission",
  "permission.changed": "Changed a permission",
  "permission.revoked": "Revoked a permission",
  "sso.provider-created": "Set up single sign-on",
  "sso.provider-changed": "Changed single sign-on settings",
  "sso.provider-removed": "Removed single sign-on",
  "gitsync.connected": "Connected Git sync",
  "gitsync.changed": "Changed Git sync settings",
  "gitsync.credentials-changed": "Changed Git sync credentials",
  "gitsync.disconnected": "Disconnected Git sync",
  "site.visibility-changed": "Changed a site's visibility",
  "site.published": "Published a site",
  "site.unpublished": "Unpublished a site",
  "site.share-link-created": "Created a share link",
  "site.share-link-revoked": "Revoked a share link",
  "site.visitor-auth-changed": "Changed a site's visitor authentication",
  "site.visitor-key-rotated": "Rotated a site's visitor authentication key",
  "site.visitor-key-read": "Read a site's visitor authentication key",
  "site.hostname-changed": "Changed a site's custom hostname",
  "organization.agent-instructions-changed": "Changed the organization's agent instructions",
  "site.agent-settings-changed": "Changed a site's agent settings",
  "site.mcp-server-added": "Added an MCP server to a site",
  "site.mcp-server-changed": "Changed an MCP server of a site",
  "site.mcp-server-removed": "Removed an MCP server from a site",
  "change-request.merged": "Merged a change request",
  "change-request.agent-reviewed": "Had the agent review a change request",
  "change-request.agent-described": "Had the agent write a change request's subject and description",
  "organization.agent-edited": "Had the organization's agent make an edit in a change request",
  "space.deleted": "Deleted a space",
  "space.restored": "Restored a space",
  "space.transferred": "Transferred a space to another organization",
  "collection.deleted": "Deleted a collection",
  "site.deleted": "Deleted a site",
  "backup.created": "Took a backup",
  "backup.restored": "Restored a backup"
} as const

export type AuditAction = keyof typeof actions
export const AuditAction = Schema.Literals(Object.keys(actions) as [AuditAction, ...Array<AuditAction>])

/** Who caused an event (GitBook's `AuditEventActor.type`). */
export const ActorType = Schema.Literals(["user", "integration", "installation", "system", "support"])
export type ActorType = typeof ActorType.Type

/** Which entry point an event came through (GitBook's `AuditEvent.source`). */
export const AuditSource = Schema.Literals(["ui", "api", "integration", "webhook", "workflow", "script", "support"])
export type AuditSource = typeof AuditSource.Type

export const AuditActor = Schema.Struct({
  type: ActorType,
  id: Schema.String,
  label: Schema.optionalKey(Schema.String)
})
export type AuditActor = typeof AuditActor.Type

export const AuditTarget = Schema.Struct({
  type: Schema.String,
  id: Schema.String,
  label: Schema.optionalKey(Schema.String)
})
export type AuditTarget = typeof AuditTarget.Type

/** Details of an action: a few plain values, never secrets. */
export const AuditPayload = Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Null]))
export type AuditPayload = typeof AuditPayload.Type

/** One recorded event. `organizationId` null: an event of the instance (a sign-in, an instance administrator). */
export interface AuditEvent {
  readonly id: string
  readonly organizationId: string | null
  readonly occurredAt: Date
  readonly action: AuditAction
  readonly actor: AuditActor
  readonly source: AuditSource
  readonly target: AuditTarget
  /** The client's address, when the event came through the network. */
  readonly address: string | null
  /** The client's user agent, when it sent one. */
  readonly userAgent: string | null
  readonly payload: AuditPayload
}

/** What a caller records; the log adds the id, the time and where the request came from. */
export interface AuditRecord {
  readonly organizationId: string | null
  readonly action: AuditAction
  readonly actor: AuditActor
  readonly target: AuditTarget
  readonly payload?: AuditPayload | undefined
}

/** Which events a listing keeps: all given filters must match. */
export interface AuditFilter {
  /** Absent: every event of the instance, each organization's included (the instance administrators' log). */
  readonly organizationId?: string | undefined
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly action?: string | undefined
  readonly actor?: string | undefined
  readonly target?: string | undefined
}
