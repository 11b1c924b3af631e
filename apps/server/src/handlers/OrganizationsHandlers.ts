/** Handlers of the organizations group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type Organization } from "@quire/api"
import { MemberInvites, Organizations, type OrganizationAccess, type OrganizationPatch } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

/** A non-member whose email is in a claimed domain sees the organization, and may do nothing in it. */
const outsider = (organization: Organization): Organization => ({
  ...organization,
  // Its rules name its reviewers, whom someone outside it does not learn of.
  mergeRules: { type: "none" },
  permissions: Object.fromEntries(Object.keys(organization.permissions).map((key) => [key, false])) as Organization["permissions"]
})

export const layer = HttpApiBuilder.group(Api, "organizations", Effect.fn(function*(handlers) {
  const organizations = yield* Organizations
  const invites = yield* MemberInvites
  const urls = yield* PublicUrl
  const present = (access: OrganizationAccess) => Presenters.organization(urls, access)
  return handlers
    .handle("listOrganizationsForAuthenticatedUser", ({ query }) =>
      organizations.list(query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, present))))
    .handle("createOrganization", ({ payload }) => organizations.create(payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("getOrganizationById", ({ params }) =>
      organizations.access(params.organizationId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateOrganizationById", ({ params, payload }) => {
      const { defaultContent, ...rest } = payload
      const patch: OrganizationPatch = {
        ...rest,
        ...(defaultContent === undefined ? {} : { defaultContentSite: defaultContent?.site ?? null })
      }
      return organizations.update(params.organizationId, patch).pipe(DomainErrors.api, Effect.map(present))
    })
    .handle("getOrganizationsForEmailDomain", ({ params }) =>
      organizations.listByEmailDomain(params.emailDomain).pipe(
        Effect.map((found) => ({
          organizations: found.map(({ membership, organization }) =>
            membership === null ? outsider(present({ organization, membership: { role: null } })) : present({ organization, membership })
          )
        }))
      ))
    .handle("inviteUsersToOrganization", ({ params, payload }) =>
      organizations.invite(params.organizationId, {
        emails: payload.emails,
        role: payload.role ?? null,
        sso: payload.sso ?? false
      }).pipe(DomainErrors.api))
    .handle("listOrganizationInviteLinks", ({ params }) =>
      organizations.listLinkInvites(params.organizationId).pipe(
        DomainErrors.api,
        Effect.map((items) => Presenters.list({ items }, (invite) => Presenters.linkInvite(urls, invite)))
      ))
    .handle("createOrganizationInvite", ({ params, payload }) =>
      organizations.createLinkInvite(params.organizationId, {
        role: payload.role ?? null,
        expiresAt: payload.expiresAt === undefined ? null : new Date(payload.expiresAt)
      }).pipe(
        DomainErrors.api,
        Effect.map((invite) => Presenters.linkInvite(urls, invite))
      ))
    .handle("deleteOrganizationInviteById", ({ params }) =>
      organizations.deleteLinkInvite(params.organizationId, params.inviteId).pipe(DomainErrors.api))
    .handle("getOrganizationInviteLink", ({ params }) =>
      organizations.getLinkInvite(params.organizationId, params.inviteId).pipe(
        DomainErrors.api,
        Effect.map((invite) => Presenters.linkInvite(urls, invite))
      ))
    .handle("updateOrganizationInviteById", ({ params, payload }) =>
      organizations.updateLinkInvite(params.organizationId, params.inviteId, {
        ...(payload.role === undefined ? {} : { role: payload.role }),
        ...(payload.expiresAt === undefined ? {} : { expiresAt: payload.expiresAt === null ? null : new Date(payload.expiresAt) })
      }).pipe(
        DomainErrors.api,
        Effect.map((invite) => Presenters.linkInvite(urls, invite))
      ))
    .handle("listOrganizationMemberInvites", ({ params }) =>
      invites.listForOrganization(params.organizationId).pipe(
        DomainErrors.api,
        Effect.map((items) => Presenters.list({ items }, Presenters.memberInvite))
      ))
    .handle("acceptOrganizationMemberInvite", ({ params }) =>
      invites.accept(params.organizationId, params.inviteId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("declineOrganizationMemberInvite", ({ params }) =>
      invites.decline(params.organizationId, params.inviteId).pipe(DomainErrors.api))
    .handle("joinOrganization", ({ params }) => organizations.joinByEmailDomain(params.organizationId).pipe(DomainErrors.api, Effect.asVoid))
    .handle("joinOrganizationWithInvite", ({ params }) =>
      organizations.joinWithLinkInvite(params.organizationId, params.inviteId).pipe(DomainErrors.api, Effect.as({})))
}))
