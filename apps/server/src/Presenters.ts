/** Domain records to the API's JSON shapes (the shapes GitBook's API answers with). */
import type {
  Collection as CollectionResponse,
  LinkInvite as LinkInviteResponse,
  MemberInvite as MemberInviteResponse,
  Member as MemberResponse,
  Organization as OrganizationResponse,
  OrganizationTeamMember as OrganizationTeamMemberResponse,
  OidcProvider as OidcProviderResponse,
  SamlProvider as SamlProviderResponse,
  Schemas,
  Space as SpaceResponse,
  Team as TeamResponse
} from "@quire/api"
import type { CollectionAccess, SpaceAccess } from "@quire/content"
import {
  Authorization,
  type LinkInviteView,
  type MemberInviteView,
  type Member,
  type OidcProvider,
  type OrganizationAccess,
  type SamlProvider,
  samlStatus,
  type Team,
  type TeamMemberView,
  type User
} from "@quire/identity"
import type { Roles } from "@quire/kernel"
import { noCounters, type SpaceCounters } from "@quire/reviews"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

/** A user as others see them; the email is shown to the user, co-members and administrators. */
export const user = (urls: Urls, u: User, options: { readonly showEmail: boolean } = { showEmail: true }): Schemas.User => ({
  object: "user",
  id: u.id,
  displayName: u.displayName,
  ...(options.showEmail ? { email: u.email } : {}),
  ...(u.photoURL === null ? {} : { photoURL: u.photoURL }),
  urls: { location: urls.api(`/users/${u.id}`) }
})

export const organization = (urls: Urls, access: OrganizationAccess): OrganizationResponse => {
  const o = access.organization
  return {
    object: "organization",
    id: o.id,
    title: o.title,
    createdAt: o.createdAt.toISOString(),
    emailDomains: o.emailDomains,
    ...(o.hostname === null ? {} : { hostname: o.hostname }),
    type: "business",
    defaultRole: o.defaultRole,
    ...(o.defaultContentSite === null ? {} : { defaultContent: { type: "site" as const, site: o.defaultContentSite } }),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: "free_2024",
    mergeRules: o.mergeRules,
    urls: {
      location: urls.api(`/orgs/${o.id}`),
      app: urls.app(`/o/${o.id}`),
      ...(o.logo === null ? {} : { logo: o.logo })
    },
    trial: { status: "notapplicable", count: 0 },
    permissions: Authorization.organizationPermissions(access.membership.role)
  }
}

export const member = (urls: Urls, m: Member): MemberResponse => ({
  object: "member",
  id: m.user.id,
  role: m.role,
  user: user(urls, m.user),
  disabled: m.disabled,
  joinedAt: m.joinedAt.toISOString(),
  ...(m.lastSeenAt === null ? {} : { lastSeenAt: m.lastSeenAt.toISOString() }),
  sso: m.sso,
  spaces: m.spaces,
  teams: m.teams,
  sites: 0
})

export const team = (callerRole: Roles.MemberRole | null, t: Team): TeamResponse => ({
  object: "team",
  id: t.id,
  title: t.title,
  members: t.members,
  spaces: t.spaces,
  createdAt: t.createdAt.toISOString(),
  permissions: Authorization.teamPermissions(callerRole)
})

export const linkInvite = (urls: Urls, { invite, redundant }: LinkInviteView): LinkInviteResponse => ({
  object: "invite",
  id: invite.id,
  role: invite.role,
  redundant,
  createdAt: invite.createdAt.toISOString(),
  ...(invite.expiresAt === null ? {} : { expiresAt: invite.expiresAt.toISOString() }),
  urls: { location: urls.api(`/orgs/${invite.organizationId}/link-invites/${invite.id}`) }
})

/** A pending invitation to an organization (Quire's addition). */
export const memberInvite = ({ invite, organization }: MemberInviteView): MemberInviteResponse => ({
  object: "member-invite",
  id: invite.id,
  organization: { id: organization.id, title: organization.title },
  email: invite.email,
  role: invite.role,
  sso: invite.sso,
  createdAt: invite.createdAt.toISOString()
})

/** A member of a team as a caller with `callerRole` in its organization sees them. */
export const teamMember = (urls: Urls, callerRole: Roles.MemberRole | null, view: TeamMemberView): OrganizationTeamMemberResponse => ({
  organization: member(urls, view.member),
  team: { role: view.role },
  permissions: { view: Authorization.teamPermissions(callerRole).view }
})

/** The list envelope of a page. */
export const list = <A, B>(page: { readonly items: ReadonlyArray<A>; readonly next?: string | undefined }, f: (a: A) => B) => ({
  ...(page.next === undefined ? {} : { next: { page: page.next } }),
  count: page.items.length,
  items: page.items.map(f)
})

/** Where the identity provider talks to Quire for a provider (its entity id, ACS, start and metadata URLs): Quire is the service provider. */
export const samlServiceUrls = (urls: Urls, provider: Pick<SamlProvider, "organizationId" | "id">) => {
  const base = urls.app(`/sso/saml/${provider.organizationId}/${provider.id}`)
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base, metadataURL: `${base}/metadata.xml` }
}

export const samlProvider = (
  urls: Urls,
  view: { readonly provider: SamlProvider; readonly defaultTeam: Team | undefined; readonly access: OrganizationAccess }
): SamlProviderResponse => {
  const p = view.provider
  return {
    object: "saml-provider",
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? "",
    entityID: p.entityID ?? "",
    certificate: p.certificate ?? "",
    ...(view.defaultTeam === undefined ? {} : { defaultTeam: team(view.access.membership.role, view.defaultTeam) }),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt.toISOString(),
    status: samlStatus(p),
    service: samlServiceUrls(urls, p),
    urls: { location: urls.api(`/orgs/${p.organizationId}/saml/${p.id}`) }
  }
}

/** Where Quire, as an OpenID Connect client, starts sign-ins with a provider, and its one redirect URL. */
export const oidcServiceUrls = (urls: Urls, provider: Pick<OidcProvider, "organizationId" | "id">) => ({
  startURL: urls.app(`/sso/oidc/${provider.organizationId}/${provider.id}/start`),
  redirectURL: urls.app("/sso/oidc/callback")
})

export const oidcProvider = (
  urls: Urls,
  view: { readonly provider: OidcProvider; readonly defaultTeam: Team | undefined; readonly access: OrganizationAccess }
): OidcProviderResponse => {
  const p = view.provider
  return {
    object: "oidc-provider",
    id: p.id,
    label: p.label,
    discoveryURL: p.discoveryURL,
    clientId: p.clientId,
    clientSecretSet: p.clientSecret !== "",
    scopes: p.scopes,
    ...(view.defaultTeam === undefined ? {} : { defaultTeam: team(view.access.membership.role, view.defaultTeam) }),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt.toISOString(),
    service: oidcServiceUrls(urls, p),
    urls: { location: urls.api(`/orgs/${p.organizationId}/oidc/${p.id}`) }
  }
}

/** A space as the caller sees it (its `permissions` are the caller's), with its counters among `counters` (zeros when absent). */
export const space = (urls: Urls, { permissions, space: s }: SpaceAccess, counters: ReadonlyMap<string, SpaceCounters>): SpaceResponse => {
  const counted = counters.get(s.id) ?? noCounters
  return {
  object: "space",
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  visibility: s.visibility,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  ...(s.deletedAt === null ? {} : { deletedAt: s.deletedAt.toISOString() }),
  editMode: s.editMode,
  mergeRules: s.mergeRules,
  urls: { location: urls.api(`/spaces/${s.id}`), app: urls.app(`/s/${s.id}`) },
  organization: s.organizationId,
  ...(s.parentId === null ? {} : { parent: s.parentId }),
  ...(s.language === null ? {} : { language: s.language }),
  revision: s.revisionId,
  defaultLevel: s.defaultLevel,
  comments: counted.comments,
  changeRequests: counted.changeRequests,
  changeRequestsOpen: counted.changeRequestsOpen,
  changeRequestsDraft: counted.changeRequestsDraft,
  permissions
  }
}

/** A collection as the caller sees it. */
export const collection = (urls: Urls, { collection: c, permissions }: CollectionAccess): CollectionResponse => ({
  object: "collection",
  id: c.id,
  title: c.title,
  ...(c.description === null ? {} : { description: c.description }),
  organization: c.organizationId,
  ...(c.parentId === null ? {} : { parent: c.parentId }),
  defaultLevel: c.defaultLevel,
  urls: { location: urls.api(`/collections/${c.id}`), app: urls.app(`/o/${c.organizationId}/c/${c.id}`) },
  permissions
})
