/** Organizations: creation, settings, listings and invitations. */
import { Schema } from "effect"
import { MergeRules } from "@quire/kernel"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { DateTime, EntityId, ListOf, MemberRoleOrGuest, PageQuery, Text, Timestamp, Url } from "./Schemas.ts"

export const OrganizationTitle = Text.check(
  Schema.isMinLength(2),
  Schema.isMaxLength(255),
  Schema.isPattern(/\S.*\S/)
)
/** A domain name of two labels or more (`acme.com`), any case: what an email address ends with. */
const EmailDomain = Schema.String.check(
  Schema.isMinLength(3),
  Schema.isMaxLength(255),
  Schema.isPattern(/^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?[.])+[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/)
)
/**
 * GitBook's OrganizationHostname is 3 to 32 characters; the seed's forms are a Subdomain label
 * (`acme`, as in `acme.gitbook.io`) or a site's hostname (`docs.acme.com`): either is accepted.
 */
const OrganizationHostname = Schema.String.check(
  Schema.isMinLength(3),
  Schema.isMaxLength(32),
  Schema.isPattern(
    /^(?:[a-z0-9][a-z0-9-]{1,30}[a-z0-9]|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9])$/
  )
)
const Email = Text.check(Schema.isMaxLength(255), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/))

/** An invitation: an email, or GitBook's `{email, role}` whose role overrides the request's. */
export const Invitee = Schema.Union([Email, Schema.Struct({ email: Email, role: MemberRoleOrGuest })])
const SitePointer = Schema.Struct({ type: Schema.Literal("site"), site: Text })

export const OrganizationPermissions = Schema.Struct({
  view: Schema.Boolean,
  access: Schema.Boolean,
  admin: Schema.Boolean,
  ownTeam: Schema.Boolean,
  createContent: Schema.Boolean,
  createOpenAPISpec: Schema.Boolean,
  ingestConversations: Schema.Boolean,
  viewBilling: Schema.Boolean,
  listMembers: Schema.Boolean,
  listTeams: Schema.Boolean,
  listIntegrations: Schema.Boolean,
  listInstallations: Schema.Boolean,
  installIntegration: Schema.Boolean
})

export const Organization = Schema.Struct({
  object: Schema.Literal("organization"),
  id: Schema.String,
  title: Schema.String,
  createdAt: Timestamp,
  emailDomains: Schema.Array(Schema.String),
  hostname: Schema.optionalKey(Schema.String),
  type: Schema.Literals(["business", "community"]),
  defaultRole: MemberRoleOrGuest,
  defaultContent: Schema.optionalKey(SitePointer),
  sso: Schema.Boolean,
  ai: Schema.Boolean,
  inviteLinks: Schema.Boolean,
  plan: Schema.String,
  /** The merge rules of its spaces that inherit them; an outsider (found by email domain) sees none. */
  mergeRules: MergeRules.StandaloneConfiguration,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String, logo: Schema.optionalKey(Schema.String) }),
  trial: Schema.Struct({ status: Schema.Literal("notapplicable"), count: Schema.Finite }),
  permissions: OrganizationPermissions
}).annotate({ identifier: "Organization" })
export type Organization = typeof Organization.Type

/**
 * GitBook's InviteLinkToOrganization. Its id is the link's secret: whoever knows it may join with
 * `joinOrganizationWithInvite`. `createdAt`, `expiresAt` and `urls` are Quire's additions.
 */
export const LinkInvite = Schema.Struct({
  object: Schema.Literal("invite"),
  id: Schema.String,
  role: MemberRoleOrGuest,
  redundant: Schema.Boolean,
  createdAt: Timestamp,
  expiresAt: Schema.optionalKey(Timestamp),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "LinkInvite" })
export type LinkInvite = typeof LinkInvite.Type

const linkInvitePath = { organizationId: EntityId, inviteId: EntityId }

/**
 * Quire's pending invitation of an email to an organization (GitBook has none): an offer that
 * the person with that email accepts or declines. `sso`: accepting makes them an SSO member.
 */
export const MemberInvite = Schema.Struct({
  object: Schema.Literal("member-invite"),
  id: Schema.String,
  organization: Schema.Struct({ id: Schema.String, title: Schema.String }),
  email: Schema.String,
  role: MemberRoleOrGuest,
  sso: Schema.Boolean,
  createdAt: Timestamp
}).annotate({ identifier: "MemberInvite" })
export type MemberInvite = typeof MemberInvite.Type

const organizationId = { organizationId: EntityId }

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(
    /** Organizations the caller belongs to. */
    HttpApiEndpoint.get("listOrganizationsForAuthenticatedUser", "/orgs", {
      query: PageQuery,
      success: ListOf(Organization),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List your organizations",
        description: "Lists the organizations the caller is a member of, paginated."
      })),
    /** Creates an organization; the caller becomes its admin. */
    HttpApiEndpoint.post("createOrganization", "/orgs", {
      payload: Schema.Struct({
        title: OrganizationTitle,
        emailDomains: Schema.optionalKey(Schema.Array(EmailDomain))
      }),
      success: Organization.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create an organization",
        description: "Creates an organization with the caller as its administrator.",
        transform: requestExample({ title: "Acme Docs" })
      })),
    HttpApiEndpoint.get("getOrganizationById", "/orgs/:organizationId", {
      params: organizationId,
      success: Organization,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an organization",
        description: "Answers an organization and the caller's permissions in it. Callers outside the organization get 404."
      })),
    HttpApiEndpoint.patch("updateOrganizationById", "/orgs/:organizationId", {
      params: organizationId,
      payload: Schema.Struct({
        title: Schema.optionalKey(OrganizationTitle),
        emailDomains: Schema.optionalKey(Schema.Array(EmailDomain)),
        hostname: Schema.optionalKey(OrganizationHostname),
        defaultRole: Schema.optionalKey(MemberRoleOrGuest),
        defaultContent: Schema.optionalKey(Schema.NullOr(SitePointer)),
        logo: Schema.optionalKey(Schema.NullOr(Url)),
        sso: Schema.optionalKey(Schema.Boolean),
        ai: Schema.optionalKey(Schema.Boolean),
        inviteLinks: Schema.optionalKey(Schema.Boolean),
        mergeRules: Schema.optionalKey(MergeRules.StandaloneConfiguration)
      }),
      success: Organization,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update an organization",
        description: "Changes an organization's title, hostname, default role, the merge rules its spaces inherit, or other settings. Needs the admin role in the organization.",
        transform: requestExample({ title: "Acme Documentation", hostname: "acme" })
      })),
    /** Organizations that claim an email domain. */
    HttpApiEndpoint.get("getOrganizationsForEmailDomain", "/email-domains/:emailDomain/orgs", {
      params: { emailDomain: EmailDomain },
      success: Schema.Struct({ organizations: Schema.Array(Organization) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Find organizations by email domain",
        description: "Lists the organizations that claim an email domain. Callers whose own email is in the domain see all of them; others only those they belong to."
      })),
    /**
     * Invites people by email: each gets a pending invitation to accept (an instance administrator's
     * adds existing users at once). `users` names the users added, as GitBook's does.
     */
    HttpApiEndpoint.post("inviteUsersToOrganization", "/orgs/:organizationId/invites", {
      params: organizationId,
      payload: Schema.Struct({
        emails: Schema.Array(Invitee).check(
          Schema.isMinLength(1),
          Schema.isMaxLength(100)
        ),
        role: Schema.optionalKey(MemberRoleOrGuest),
        sso: Schema.optionalKey(Schema.Boolean)
      }),
      success: Schema.Struct({ users: Schema.Array(Schema.String), invited: Schema.Finite }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Invite people by email",
        description: "Invites people to an organization by email, with a role each. Each invitation is an offer: it grants nothing until the person with that email, signed in as themselves, accepts it (`acceptOrganizationMemberInvite`; they find it with `listInvitesForAuthenticatedUser`). It waits 30 days, for an account created later too. An instance administrator's invitation adds existing accounts at once. `users` names the users added to the organization (empty for an organization admin's invitations, which add nobody, so the answer never tells whether an email has an account); `invited` counts the emails. Needs the admin role."
      })),
    HttpApiEndpoint.get("listOrganizationInviteLinks", "/orgs/:organizationId/link-invites", {
      params: organizationId,
      query: PageQuery,
      success: ListOf(LinkInvite),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List invite links",
        description: "Lists an organization's invite links. Needs the admin role."
      })),
    HttpApiEndpoint.post("createOrganizationInvite", "/orgs/:organizationId/link-invites", {
      params: organizationId,
      payload: Schema.Struct({
        role: Schema.optionalKey(MemberRoleOrGuest),
        /** Quire's addition: when the link stops letting people join (never when absent). */
        expiresAt: Schema.optionalKey(DateTime)
      }),
      success: LinkInvite.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create an invite link",
        description: "Creates a link that lets whoever holds it join the organization with the given role. Needs the admin role."
      })),
    HttpApiEndpoint.delete("deleteOrganizationInviteById", "/orgs/:organizationId/link-invites/:inviteId", {
      params: linkInvitePath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete an invite link",
        description: "Deletes an invite link so it can no longer be used. Needs the admin role."
      })),
    /** An invite link: its organization's admins, or anyone holding the link while it can be used. */
    HttpApiEndpoint.get("getOrganizationInviteLink", "/orgs/:organizationId/link-invites/:inviteId", {
      params: linkInvitePath,
      success: LinkInvite,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an invite link",
        description: "Answers an invite link with its role and whether joining would give the caller anything (`redundant`). Admins see any of their organization's links; anyone else who holds the link's id sees it while it can be used."
      })),
    /** Changes an invite link's role or expiry (admins). */
    HttpApiEndpoint.patch("updateOrganizationInviteById", "/orgs/:organizationId/link-invites/:inviteId", {
      params: linkInvitePath,
      payload: Schema.Struct({
        role: Schema.optionalKey(MemberRoleOrGuest),
        /** Quire's addition: a new expiry, or null for none. */
        expiresAt: Schema.optionalKey(Schema.NullOr(DateTime))
      }),
      success: LinkInvite,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update an invite link",
        description: "Changes the role an invite link gives, or when it expires (`expiresAt`, null for never). Needs the admin role.",
        transform: requestExample({ role: "edit", expiresAt: "2030-01-31T12:00:00Z" })
      })),
    /** The organization's pending invitations (its admins). */
    HttpApiEndpoint.get("listOrganizationMemberInvites", "/orgs/:organizationId/member-invites", {
      params: organizationId,
      success: ListOf(MemberInvite),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List pending invitations",
        description: "Quire's addition: the organization's invitations that their people have not accepted or declined yet, oldest first. Needs the admin role."
      })),
    /** The invited person accepts an invitation: they join with its role. */
    HttpApiEndpoint.post("acceptOrganizationMemberInvite", "/orgs/:organizationId/member-invites/:inviteId/accept", {
      params: linkInvitePath,
      success: Organization,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Accept an invitation",
        description: "Quire's addition: the invited person, signed in as themselves, joins the organization with the invitation's role (a member keeps the higher of the two roles) and, for an `sso` invitation, as an SSO member. Answers the organization. Anyone else's invitation is not found (404)."
      })),
    /** The invited person declines an invitation, or an admin withdraws it. */
    HttpApiEndpoint.post("declineOrganizationMemberInvite", "/orgs/:organizationId/member-invites/:inviteId/decline", {
      params: linkInvitePath,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Decline an invitation",
        description: "Quire's addition: the invited person declines an invitation, or an admin of the organization withdraws it; it is forgotten. Anyone else gets 404."
      })),
    /** The caller joins the organization with an invite link's role. */
    HttpApiEndpoint.post("joinOrganizationWithInvite", "/orgs/:organizationId/invites/:inviteId", {
      params: linkInvitePath,
      success: Schema.Struct({}),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Join with an invite link",
        description: "Makes the caller a member with the invite link's role; a member whose role is lower gets the link's, anyone else is left as they are. Refused when the link is unknown (404), the organization turned invite links off (403) or the link expired (400)."
      })),
    /** The caller joins an organization that allows their verified email's domain. */
    HttpApiEndpoint.post("joinOrganization", "/orgs/:organizationId/join", {
      params: { organizationId: EntityId },
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Join an organization by email domain",
        description: "Makes the caller a member, with the organization's default role (`defaultRole`; a reader when it has none), when the domain of their verified email is one of the organization's `emailDomains`. A member is left as they are. 400 when the caller's email is not verified or its domain is not one the organization allows; 404 when no such organization exists or the caller's domain is not among its domains and they are no member (an organization is not revealed to someone who may not join it)."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
