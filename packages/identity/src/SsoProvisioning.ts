/**
 * What an organization's identity provider (SAML or OpenID Connect) may do with the email it vouches
 * for, written once for both protocols (docs/sso.md, "Provisioning"): it speaks for its own
 * organization only, and for emails of the domains that organization claims, when it claims any.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditLog, userRef } from "@quire/audit"
import { Ids, type Roles } from "@quire/kernel"
import type { User } from "./domain/Identity.ts"
import { SignInRefused } from "./domain/SignIn.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import { TeamsRepo } from "./TeamsRepo.ts"
import { UsersRepo } from "./UsersRepo.ts"

/** Who signed in, and into which organization. */
export interface SsoSignedIn {
  readonly user: User
  readonly organizationId: string
  /** True when this sign-in made them a member. */
  readonly provisioned: boolean
}

/** The provider's part in provisioning: its organization and what a new member gets. */
export interface ProvisioningRules {
  readonly organizationId: string
  readonly defaultRole: Roles.MemberRole | null
  readonly defaultTeamId: string | null
}

export interface SsoProvisioningShape {
  /**
   * Signs in (creating if needed) the account of `email`, as the provider's organization allows;
   * refused with the reason otherwise. Call it inside the sign-in's transaction.
   */
  readonly provision: (rules: ProvisioningRules, email: string, displayName: string) => Effect.Effect<SsoSignedIn, SignInRefused>
}

/** The domain part of an email, lower-cased. */
export const emailDomainOf = (email: string) => (email.split("@").pop() ?? "").toLowerCase()

export class SsoProvisioning extends Context.Service<SsoProvisioning, SsoProvisioningShape>()("@quire/identity/SsoProvisioning") {
  static readonly layer = Layer.effect(
    SsoProvisioning,
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const members = yield* MembersRepo
      const organizations = yield* OrganizationsRepo
      const teams = yield* TeamsRepo
      const audit = yield* AuditLog
      const ids = yield* Ids.Ids
      const refuse = (reason: string) => Effect.fail(new SignInRefused({ reason }))

      /**
       * It may create a new account (a member of this organization alone: this organization's
       * pending invitation of the email sets the role, every other organization's stays pending)
       * and sign in an existing account only when that account is already an SSO member here, so it
       * cannot take over an account by naming its email, even one it invited.
       */
      const provision = Effect.fn("SsoProvisioning.provision")(function*(rules: ProvisioningRules, email: string, displayName: string) {
        const { organizationId } = rules
        const organization = yield* organizations.find(organizationId)
        if (Option.isNone(organization)) return yield* refuse("this organization no longer exists")
        const domains = organization.value.emailDomains
        if (domains.length > 0 && !domains.includes(emailDomainOf(email))) {
          return yield* refuse(`${email} is not an address of this organization's email domains (${domains.join(", ")})`)
        }
        const existing = yield* users.findByEmail(email)
        if (Option.isSome(existing)) {
          if (existing.value.instanceAdmin) return yield* refuse("instance administrators cannot sign in with an organization's single sign-on")
          const membership = yield* members.find(organizationId, existing.value.id)
          if (Option.isNone(membership) || !membership.value.sso) {
            return yield* refuse(
              "an account with this email exists and is not an SSO member of this organization: its owner must accept an invitation " +
                "and an administrator make them an SSO member first"
            )
          }
          if (membership.value.disabled) return yield* refuse("this membership of the organization is disabled")
          return { user: existing.value, organizationId, provisioned: false }
        }
        const at = new Date(yield* Clock.currentTimeMillis)
        const user: User = { id: yield* ids.make, email, displayName, photoURL: null, instanceAdmin: false, createdAt: at }
        yield* users.insert(user).pipe(Effect.orDie)
        const invite = yield* organizations.takeEmailInvite(organizationId, email)
        const role = Option.match(invite, { onNone: () => rules.defaultRole, onSome: (i) => i.role })
        yield* members.add({ organizationId, userId: user.id, role, sso: true, joinedAt: at })
        yield* audit.record({ organizationId, action: "member.joined", actor: userRef(user.id, email), target: userRef(user.id, email), payload: { role, sso: true } })
        if (rules.defaultTeamId !== null) yield* teams.addMember(organizationId, rules.defaultTeamId, user.id)
        return { user, organizationId, provisioned: true }
      })

      return SsoProvisioning.of({ provision })
    })
  )
}
