/**
 * Joining through an invitation from the browser: an invite link (whoever has it joins with its
 * role) or an email invitation (the person with that email joins), each named by an invite token
 * (`<organizationId>.<inviteId>`, see {@link inviteToken}). Someone without an account creates
 * it there (name, email, password) and joins in one step; someone signed in accepts it as
 * themselves. An email that already has an account is never taken over: its person signs in
 * first.
 */
import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, type Roles, Sealed, Transactor } from "@quire/kernel"
import type { Organization, User } from "../domain/Identity.ts"
import { MemberInvites } from "../MemberInvites.ts"
import { MembersRepo } from "../MembersRepo.ts"
import { Organizations } from "../Organizations.ts"
import { OrganizationsRepo } from "../OrganizationsRepo.ts"
import { type SessionGrant, sessionActor, type SignInSession, SignInSessions } from "../SignInSessions.ts"
import { UsersRepo } from "../UsersRepo.ts"
import { type ClientInfo, PasswordSignIn } from "./PasswordSignIn.ts"
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
}

/** The account an invitation's sign-up creates (fields unchecked: the use case names the bad one). */
export interface SignUpInput {
  readonly displayName: unknown
  readonly email: unknown
  readonly password: unknown
}

/**
 * `QUIRE_SIGN_UP_LIMIT` accounts an address may try to create through invitations per
 * `QUIRE_SIGN_UP_WINDOW` seconds (issue 34: 60 accounts in 1.3 s from one address).
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
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const limits = yield* Effect.orDie(SignUpLimits)
      const attempts = yield* SignInRepo

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
          return { kind: "link", organization: organization.value, email: undefined, role: link.value.role, inviteId, sso: false } as const
        }
        const invite = yield* repo.findEmailInvite(organizationId, inviteId)
        if (Option.isNone(invite)) return yield* notFound
        const { email, role, sso } = invite.value
        return { kind: "email", organization: organization.value, email, role, inviteId, sso } as const
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
        const user = yield* transactor.transaction(Effect.gen(function*() {
          if (Option.isSome(yield* users.findByEmail(email))) {
            return yield* new Errors.Conflict({ reason: `email: an account with this email exists; sign in, then accept the invitation` })
          }
          const created: User = { id: yield* ids.make, email, displayName, photoURL: null, instanceAdmin: false, createdAt: yield* now }
          yield* users.insert(created)
          yield* passwords.setPassword(created.id, password)
          const organizationId = invite.organization.id
          if (invite.kind === "email") yield* repo.takeEmailInvite(organizationId, email)
          yield* members.add({ organizationId, userId: created.id, role: invite.role, sso: invite.sso, joinedAt: created.createdAt })
          return created
        }))
        return yield* sessions.begin({ userId: user.id, method: "password", userAgent: client.userAgent })
      })

      const accept = Effect.fn("InviteSignUp.accept")(function*(token: string, session: SignInSession) {
        const invite = yield* find(token)
        const organizationId = invite.organization.id
        const joined: Effect.Effect<void, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor> = invite.kind === "link"
          ? Effect.asVoid(organizations.joinWithLinkInvite(organizationId, invite.inviteId))
          : Effect.asVoid(memberInvites.accept(organizationId, invite.inviteId))
        yield* Effect.provideService(joined, Actor.Actor, sessionActor(session))
      })

      return InviteSignUp.of({ find, signUp, accept })
    })
  )
}
