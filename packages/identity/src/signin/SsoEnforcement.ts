/**
 * Single sign-on enforced by an organization (its `sso` setting, GitBook's "SSO enforced
 * organization-wide"): its members sign in through its provider, not with a password, and its
 * invitations are not taken up with a password sign-up. Its admins keep their password, so a
 * broken provider cannot lock the organization out; instance administrators never sign in
 * through an organization's provider, so they keep theirs too.
 */
import { Effect, Option } from "effect"
import { Pagination } from "@quire/kernel"
import type { Organization } from "../domain/Identity.ts"
import { SsoRequired } from "../domain/SignIn.ts"
import { MembersRepo } from "../MembersRepo.ts"
import { organizationKeyShape, OrganizationsRepo } from "../OrganizationsRepo.ts"

export const required = (organization: Organization) =>
  new SsoRequired({ organizationId: organization.id, organizationTitle: organization.title })

export const make = Effect.gen(function*() {
  const organizations = yield* OrganizationsRepo
  const members = yield* MembersRepo

  /** Fails when an organization the person is an enabled, non-admin member of enforces single sign-on. */
  const checkPassword = Effect.fnUntraced(function*(user: { readonly id: string; readonly instanceAdmin: boolean }) {
    if (user.instanceAdmin) return
    let cursor: string | undefined
    do {
      const after = yield* Effect.orDie(Pagination.afterOf({ page: cursor }, organizationKeyShape))
      const page = yield* organizations.listForUser(user.id, after, Pagination.maxLimit)
      for (const { organization, membership } of page.items) {
        if (!organization.sso || membership.role === "admin") continue
        const member = yield* members.find(organization.id, user.id)
        if (Option.isSome(member) && !member.value.disabled) return yield* required(organization)
      }
      cursor = page.next
    } while (cursor !== undefined)
  })

  return { checkPassword }
})
