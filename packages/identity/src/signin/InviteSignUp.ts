/**
 * Joining through an invitation from the browser: an invite link (whoever has it joins with its
 * role) or an email invitation (the person with that email joins), each named by an invite token
 * (`<organizationId>.<inviteId>`, see {@link inviteToken}, or the secret token of the link Quire
 * mailed to the invited address). Someone without an account creates it there (name, email,
 * password) and joins in one step; someone signed in accepts it as themselves. An invite link's
 * sign-up proves no email; an email invitation's mailed link proves it. An email that already has
 * an account is never taken over, unless that account never proved the email and the mailed link
 * does: the mailbox's owner then claims it (a new password; its sessions and tokens end).
 */
import { AuditLog, userRef } from "@quire/audit"
import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, type Roles, Sealed, Transactor } from "@quire/kernel"
import type { Organization, User } from "../domain/Identity.ts"
import { MemberInvites } from "../MemberInvites.ts"
import { MembersRepo } from "../MembersRepo.ts"
import { Organizations } from "../Organizations.ts"
import { OrganizationsRepo } from "../OrganizationsRepo.ts"
import { type SessionGrant, sessionActor, type SignInSession, SignInSessions } from "../SignInSessions.ts"
import { UsersRepo } from "../UsersRepo.ts"
import { Users } from "../Users.ts"
import { EmailVerificationRepo } from "../EmailVerificationRepo.ts"
import { emailInviteIds } from "../organizations/EmailInviteIds.ts"
import { openEmailInviteToken } from "../organizations/EmailInviteTokens.ts"
import { type ClientInfo, fromClient, PasswordSignIn } from "./PasswordSignIn.ts"
import { validDisplayName, validEmail, validPassword } from "./Passwords.ts"
import * as SsoEnforcement from "./SsoEnforcement.ts"
import { type SsoRequired, TooManyAttempts } from "../domain/SignIn.ts"
import { SignInRepo } from "./SignInRepo.ts"

/** The token of an invitation, for the app's `/invite/<token>` page. */
export const inviteToken = (organizationId: string, inviteId: string): string => `${organizationId}.${inviteId}`

/** An invitation as its token shows it to whoever holds the token. */
export interface InviteView {
  readonly kind: "link" | "email"
  readonly organization: Organization
  /** The invited email (an email invitation). */
  readonly email: string | undefined
  readonly role: Roles.MemberRole | null
  readonly inviteId: string
  readonly sso: boolean
  /** The token is the email invitation's mailed secret link: answering through it proves the email. */
  readonly proof: boolean
}

/** The account an invitation's sign-up creates (fields unchecked: the use case names the bad one). */
export interface SignUpInput {
  readonly displayName: unknown
  readonly email: unknown
  readonly password: unknown
}

/**
 * `QUIRE_SIGN_UP_LIMIT` accounts an address may try to create through invitations per
 * `QUIRE_SIGN_UP_WINDOW` seconds.
 */
export const SignUpLimits = Config.all({
  perAddress: Config.Int("QUIRE_SIGN_UP_LIMIT").pipe(Config.withDefault(10)),
  windowSeconds: Config.Int("QUIRE_SIGN_UP_WINDOW").pipe(Config.withDefault(3600))
})

export interface InviteSignUpShape {
  /** The usable invitation `token` names: NotFound when unknown, expired, used, or its links turned off. */
  readonly find: (token: string) => Effect.Effect<InviteView, Errors.NotFound>
  /** Creates the account, makes it a member, and begins its session. */
  readonly signUp: (
    token: string,
    input: SignUpInput,
    client: ClientInfo
  ) => Effect.Effect<SessionGrant, Errors.NotFound | Errors.InvalidInput | Errors.Conflict | SsoRequired | TooManyAttempts>
  /** The signed-in person accepts the invitation (an email invitation: only its own email's). */
  readonly accept: (token: string, session: SignInSession) => Effect.Effect<void, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput>
}

export class InviteSignUp extends Context.Service<InviteSignUp, InviteSignUpShape>()("@quire/identity/InviteSignUp") {
  static readonly layer = Layer.effect(
    InviteSignUp,
    Effect.gen(function*() {
      const repo = yield* OrganizationsRepo
      const organizations = yield* Organizations
      const memberInvites = yield* MemberInvites
      const members = yield* MembersRepo
      const users = yield* UsersRepo
      const sessions = yield* SignInSessions
      const passwords = yield* PasswordSignIn
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const limits = yield* Effect.orDie(SignUpLimits)
      const attempts = yield* SignInRepo
      const verifications = yield* EmailVerificationRepo
      const accounts = yield* Users
      const inviteIds = yield* emailInviteIds

      /** Counts a sign-up from the client's address; refuses once the address spent its window's. */
      const spendSignUp = Effect.fnUntraced(function*(client: ClientInfo) {
        if (limits.perAddress <= 0) return
        const key = `sign-up:${client.address}`
        const at = yield* now
        const counted = yield* attempts.countAttempts(key, at)
        if (counted.count >= limits.perAddress) {
          return yield* new TooManyAttempts({
            attempts: "accounts created from this address",
            retryAfterSeconds: Math.max(1, Math.ceil((counted.resetAt.getTime() - at.getTime()) / 1000))
          })
        }
        yield* attempts.addAttempt(key, at, limits.windowSeconds * 1000)
      })

      const find = Effect.fn("InviteSignUp.find")(function*(token: string) {
        const notFound = new Errors.NotFound({ resource: "Invite", id: token })
        const mailed = yield* openEmailInviteToken(token)
        if (Option.isSome(mailed)) {
          const { email, inviteId, organizationId } = mailed.value
          const [organization, invite] = [yield* repo.find(organizationId), yield* repo.findEmailInvite(organizationId, inviteIds.storedId(inviteId))]
          if (Option.isNone(organization) || Option.isNone(invite) || invite.value.email !== email) return yield* notFound
          const { role, sso } = invite.value
          return { kind: "email", organization: organization.value, email, role, inviteId, sso, proof: true } as const
        }
        const [organizationId, inviteId, ...rest] = token.split(".")
        if (organizationId === undefined || inviteId === undefined || rest.length > 0 || organizationId === "" || inviteId === "") {
          return yield* notFound
        }
        const organization = yield* repo.find(organizationId)
        if (Option.isNone(organization)) return yield* notFound
        // Links are stored by their secret's hash.
        const link = yield* repo.findLinkInvite(organizationId, Sealed.bearerHash(inviteId))
        if (Option.isSome(link)) {
          const at = yield* now
          if (!organization.value.inviteLinks || (link.value.expiresAt !== null && link.value.expiresAt <= at)) return yield* notFound
          return { kind: "link", organization: organization.value, email: undefined, role: link.value.role, inviteId, sso: false, proof: false } as const
        }
        // So are email invitations, by their id's (a row's stored id, as a dump holds it, names none).
        const invite = yield* repo.findEmailInvite(organizationId, inviteIds.storedId(inviteId))
        if (Option.isNone(invite)) return yield* notFound
        const { email, role, sso } = invite.value
        return { kind: "email", organization: organization.value, email, role, inviteId, sso, proof: false } as const
      })

      const signUp = Effect.fn("InviteSignUp.signUp")(function*(token: string, input: SignUpInput, client: ClientInfo) {
        const invite = yield* find(token)
        // An organization that enforces single sign-on is joined through its provider, which takes up the invitation.
        if (invite.organization.sso) return yield* SsoEnforcement.required(invite.organization)
        const displayName = yield* validDisplayName("displayName", input.displayName)
        const email = invite.email !== undefined && (input.email === undefined || input.email === "")
          ? invite.email
          : yield* validEmail("email", input.email)
        if (invite.email !== undefined && email !== invite.email) {
          return yield* new Errors.InvalidInput({ field: "email", reason: `this invitation is for ${invite.email}` })
        }
        const password = yield* validPassword("password", input.password)
        // Every account attempted counts (one taken already too: the answer says it exists).
        yield* spendSignUp(client)
        const { claimed, user } = yield* transactor.transaction(Effect.gen(function*() {
          const organizationId = invite.organization.id
          const holder = yield* users.findByEmail(email)
          // The mailed link proves the mailbox: an account that never proved this email is its owner's to claim.
          const claim = Option.isSome(holder) && invite.proof && !holder.value.instanceAdmin && !(yield* verifications.isVerified(holder.value.id))
          if (Option.isSome(holder) && !claim) {
            return yield* new Errors.Conflict({ reason: `email: an account with this email exists; sign in, then accept the invitation` })
          }
          const at = yield* now
          // A claimed account takes the name its owner gives, as a new one would.
          const account: User = Option.isSome(holder)
            ? Option.getOrElse(yield* users.update(holder.value.id, { displayName }), () => holder.value)
            : { id: yield* ids.make, email, displayName, photoURL: null, instanceAdmin: false, createdAt: at }
          if (Option.isNone(holder)) yield* users.insert(account)
          yield* passwords.setPassword(account.id, password)
          if (invite.proof) yield* verifications.markVerified(account.id, email, at)
          if (invite.kind === "email") yield* repo.takeEmailInvite(organizationId, email)
          const member = yield* members.find(organizationId, account.id)
          if (Option.isNone(member)) {
            yield* members.add({ organizationId, userId: account.id, role: invite.role, sso: invite.sso, joinedAt: at })
            yield* audit.record({
              organizationId,
              action: "member.joined",
              actor: userRef(account.id, email),
              target: userRef(account.id, email),
              payload: { role: invite.role, signedUp: true }
            })
          }
          // Whoever held the account before the owner proved the mailbox keeps no way in.
          const revoked = claim ? yield* revokeAccess(account.id) : []
          return { user: account, claimed: revoked }
        }))
        if (claimed.length > 0) yield* accounts.forgetTokens(claimed)
        return yield* sessions.begin({ userId: user.id, method: "password", userAgent: client.userAgent }).pipe(fromClient(client))
      })

      /** Ends every session and API token of the account (claimed by its email's owner); the hashes of the tokens. */
      const revokeAccess = Effect.fnUntraced(function*(userId: string) {
        yield* sessions.revokeOthers(userId, undefined)
        const hashes: Array<string> = []
        for (const token of yield* users.listTokens(userId)) {
          const hash = yield* users.deleteToken(userId, token.id)
          if (Option.isSome(hash)) hashes.push(hash.value)
        }
        return hashes
      })

      const accept = Effect.fn("InviteSignUp.accept")(function*(token: string, session: SignInSession) {
        const invite = yield* find(token)
        const organizationId = invite.organization.id
        if (invite.kind === "email") {
          const person = yield* users.findById(session.userId)
          const own = Option.isSome(person) ? person.value.email.toLowerCase() : ""
          if (own !== invite.email) {
            return yield* new Errors.Forbidden({
              reason: `This invitation is for ${invite.email}, and you are signed in as ${own}: sign out, then open the link again`
            })
          }
          if (invite.proof) yield* Effect.flatMap(now, (at) => verifications.markVerified(session.userId, own, at))
        }
        const joined: Effect.Effect<void, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor> = invite.kind === "link"
          ? Effect.asVoid(organizations.joinWithLinkInvite(organizationId, invite.inviteId))
          : Effect.asVoid(memberInvites.acceptThroughLink(organizationId, invite.inviteId))
        yield* Effect.provideService(joined, Actor.Actor, sessionActor(session))
      })

      return InviteSignUp.of({ find, signUp, accept })
    })
  )
}
