/**
 * Password sign-in: first-run setup of the instance administrator's account, signing in with an
 * email and a password, and changing one's password. Attempts are counted in fixed windows per
 * address (every attempt), per email and address (failures) and per email (failures from
 * anywhere). Past the first two, that address waits for the window to end; past the per-email
 * ceiling, only an address that has not itself failed for that email in the window may still try,
 * so a stranger's failures never lock the owner out of their own address. A wrong email and a wrong password get the same answer in about the same time
 * (an unknown email verifies a dummy hash).
 */
import { AuditLog, AuditOrigin, userRef } from "@quire/audit"
import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import { Errors, Transactor } from "@quire/kernel"
import { SetupClosed, SignInFailed, type SsoRequired, TooManyAttempts } from "../domain/SignIn.ts"
import { type SessionGrant, type SignInSession, SignInSessions } from "../SignInSessions.ts"
import { Users } from "../Users.ts"
import { UsersRepo } from "../UsersRepo.ts"
import { accountMail } from "./AccountMail.ts"
import { Passwords, validDisplayName, validEmail, validPassword } from "./Passwords.ts"
import { SignInRepo } from "./SignInRepo.ts"
import * as SsoEnforcement from "./SsoEnforcement.ts"

/** Where a sign-in comes from: the client's address (rate limits) and its user agent (the session list). */
export interface ClientInfo {
  readonly address: string
  readonly userAgent?: string | undefined
}

/** What first-run setup asks for (fields unchecked: the use case names the bad one). */
export interface SetupInput {
  readonly setupCode: unknown
  readonly displayName: unknown
  readonly email: unknown
  readonly password: unknown
}

/**
 * Per `QUIRE_SIGN_IN_WINDOW` seconds: `QUIRE_SIGN_IN_ATTEMPTS` failed sign-ins per email from one
 * address, `QUIRE_SIGN_IN_ADDRESS_ATTEMPTS` sign-in attempts per address, and
 * `QUIRE_SIGN_IN_ACCOUNT_ATTEMPTS` failed sign-ins per email from every address (past it, only
 * addresses without failures of their own for that email may try).
 */
export const SignInLimits = Config.all({
  perEmail: Config.Int("QUIRE_SIGN_IN_ATTEMPTS").pipe(Config.withDefault(10)),
  perAccount: Config.Int("QUIRE_SIGN_IN_ACCOUNT_ATTEMPTS").pipe(Config.withDefault(100)),
  perAddress: Config.Int("QUIRE_SIGN_IN_ADDRESS_ATTEMPTS").pipe(Config.withDefault(100)),
  windowSeconds: Config.Int("QUIRE_SIGN_IN_WINDOW").pipe(Config.withDefault(900))
})

export interface PasswordSignInShape {
  /** Whether first-run setup is open: no instance administrator has a password yet. */
  readonly setupOpen: Effect.Effect<boolean>
  /**
   * Sets the instance administrator's name, email and password, given the setup code (their API
   * token the server printed at first start), while setup is open; begins their session.
   */
  readonly setup: (input: SetupInput, client: ClientInfo) => Effect.Effect<SessionGrant, SetupClosed | Errors.InvalidInput | Errors.Conflict | TooManyAttempts>
  /** Begins a password session for the person with this email and password. */
  readonly signIn: (email: unknown, password: unknown, client: ClientInfo) => Effect.Effect<SessionGrant, SignInFailed | TooManyAttempts | SsoRequired>
  /**
   * Changes the session's person's password, given the current one; their other sessions end. A
   * session confined to one organization (SAML) cannot: a password reaches the whole account.
   */
  readonly changePassword: (
    session: SignInSession,
    currentPassword: unknown,
    newPassword: unknown
  ) => Effect.Effect<void, Errors.Forbidden | Errors.InvalidInput | TooManyAttempts>
  /** Sets a new person's password (an invitation's sign-up); the caller holds the transaction. */
  readonly setPassword: (userId: string, password: string) => Effect.Effect<void>
}

const addressKey = (client: ClientInfo) => `address:${client.address}`

/** Audit events of a sign-in carry the signing-in client's address and user agent (sign-in pages are the app's). */
export const fromClient = (client: ClientInfo) =>
  Effect.provideService(AuditOrigin, { source: "ui", address: client.address, userAgent: client.userAgent })

export class PasswordSignIn extends Context.Service<PasswordSignIn, PasswordSignInShape>()("@quire/identity/PasswordSignIn") {
  static readonly layer = Layer.effect(
    PasswordSignIn,
    Effect.gen(function*() {
      const limits = yield* Effect.orDie(SignInLimits)
      const repo = yield* SignInRepo
      const users = yield* Users
      const usersRepo = yield* UsersRepo
      const sessions = yield* SignInSessions
      const passwords = yield* Passwords
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const enforcement = yield* SsoEnforcement.make
      const mail = yield* accountMail
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const windowMs = limits.windowSeconds * 1000

      /** Refuses when `key` has spent `limit` attempts in its window. */
      const checkBudget = Effect.fnUntraced(function*(key: string, limit: number) {
        const at = yield* now
        const counted = yield* repo.countAttempts(key, at)
        if (limit > 0 && counted.count >= limit) {
          return yield* new TooManyAttempts({ retryAfterSeconds: Math.max(1, Math.ceil((counted.resetAt.getTime() - at.getTime()) / 1000)) })
        }
      })
      const spend = (key: string) => Effect.flatMap(now, (at) => repo.addAttempt(key, at, windowMs))

      const setPassword = (userId: string, password: string) =>
        Effect.gen(function*() {
          yield* repo.setPassword(userId, yield* passwords.hash(password), yield* now)
        })

      const setupOpen = Effect.map(repo.adminHasPassword, (has) => !has)

      const setup = Effect.fn("PasswordSignIn.setup")(function*(input: SetupInput, client: ClientInfo) {
        if (!(yield* setupOpen)) return yield* new SetupClosed({ reason: "Setup is done: sign in instead" })
        yield* checkBudget(addressKey(client), limits.perAddress)
        if (typeof input.setupCode !== "string" || input.setupCode.trim() === "") {
          return yield* new Errors.InvalidInput({ field: "setupCode", reason: "required: the setup code the server printed in its log at first start" })
        }
        const caller = yield* users.caller(input.setupCode.trim())
        if (Option.isNone(caller) || !caller.value.actor.instanceAdmin) {
          yield* spend(addressKey(client))
          return yield* new SetupClosed({ reason: "setupCode: not the setup code the server printed in its log at first start" })
        }
        const admin = caller.value.user
        const displayName = yield* validDisplayName("displayName", input.displayName)
        const email = yield* validEmail("email", input.email)
        const password = yield* validPassword("password", input.password)
        const hash = yield* passwords.hash(password)
        yield* transactor.transaction(Effect.gen(function*() {
          if (yield* repo.adminHasPassword) return yield* new SetupClosed({ reason: "Setup is done: sign in instead" })
          const holder = yield* usersRepo.findByEmail(email)
          if (Option.isSome(holder) && holder.value.id !== admin.id) {
            return yield* new Errors.Conflict({ reason: `email: another account has the email ${email}` })
          }
          yield* usersRepo.update(admin.id, { displayName, email })
          yield* repo.setPassword(admin.id, hash, yield* now)
        }))
        // The sign-in email changed: the address it had hears of it.
        if (admin.email.toLowerCase() !== email) {
          yield* mail.notice(
            admin.email,
            "The Quire administrator's sign-in email was changed",
            `First-run setup changed the sign-in email of the Quire administrator from ${admin.email} to ${email}.\n`
          )
        }
        return yield* sessions.begin({ userId: admin.id, method: "password", userAgent: client.userAgent }).pipe(fromClient(client))
      })

      const signIn = Effect.fn("PasswordSignIn.signIn")(function*(emailInput: unknown, password: unknown, client: ClientInfo) {
        const email = typeof emailInput === "string" ? emailInput.trim().toLowerCase() : ""
        const emailKey = `email:${email}`
        // Failures for this email from this address: what a guesser spends, and the owner does not.
        const pairKey = `email:${email}|${addressKey(client)}`
        yield* checkBudget(addressKey(client), limits.perAddress)
        yield* checkBudget(pairKey, limits.perEmail)
        // Many addresses guessing one account: past the ceiling, an address that has failed for it
        // this window waits (one try each for the others), while the owner's own address still signs in.
        const at = yield* now
        const account = yield* repo.countAttempts(emailKey, at)
        if (limits.perAccount > 0 && account.count >= limits.perAccount && (yield* repo.countAttempts(pairKey, at)).count > 0) {
          return yield* new TooManyAttempts({ retryAfterSeconds: Math.max(1, Math.ceil((account.resetAt.getTime() - at.getTime()) / 1000)) })
        }
        yield* spend(addressKey(client))
        const user = email === "" ? Option.none() : yield* usersRepo.findByEmail(email)
        const stored = Option.isSome(user) ? yield* repo.findPassword(user.value.id) : Option.none<string>()
        const matches = yield* passwords.verify(stored, typeof password === "string" ? password : "")
        if (!matches || Option.isNone(user)) {
          yield* spend(pairKey)
          yield* spend(emailKey)
          // The email tried is kept only when it names an account: a typo of a password into the email field stays out of the log.
          yield* audit.record({
            organizationId: null,
            action: "auth.password.failed",
            actor: Option.isSome(user) ? { type: "user", id: user.value.id, label: user.value.email } : { type: "user", id: "unknown" },
            target: Option.isSome(user) ? { type: "user", id: user.value.id, label: user.value.email } : { type: "user", id: "unknown" }
          }).pipe(fromClient(client))
          return yield* new SignInFailed()
        }
        // The address's own failures are forgiven; the account's count stays, so a success of the
        // owner does not hand the guessers a new allowance.
        yield* repo.clearAttempts(pairKey)
        // Only once the password is right, so that the answer reveals nothing to a stranger.
        yield* enforcement.checkPassword(user.value)
        return yield* sessions.begin({ userId: user.value.id, method: "password", userAgent: client.userAgent }).pipe(fromClient(client))
      })

      const changePassword = Effect.fn("PasswordSignIn.changePassword")(function*(
        session: SignInSession,
        currentPassword: unknown,
        newPassword: unknown
      ) {
        if (session.organizationId !== undefined) {
          return yield* new Errors.Forbidden({ reason: "A single sign-on session cannot set a password: sign in with your password" })
        }
        const key = `user:${session.userId}`
        yield* checkBudget(key, limits.perEmail)
        const stored = yield* repo.findPassword(session.userId)
        const matches = yield* passwords.verify(stored, typeof currentPassword === "string" ? currentPassword : "")
        if (!matches) {
          yield* spend(key)
          return yield* new Errors.InvalidInput({ field: "currentPassword", reason: "is not your current password" })
        }
        const password = yield* validPassword("newPassword", newPassword)
        yield* transactor.transaction(Effect.gen(function*() {
          yield* setPassword(session.userId, password)
          yield* audit.record({ organizationId: null, action: "auth.password.changed", actor: userRef(session.userId), target: userRef(session.userId) })
          yield* sessions.revokeOthers(session.userId, session.id)
        }))
        yield* repo.clearAttempts(key)
        // The person hears of it at their email, so that a change they did not make does not go unnoticed.
        const person = yield* usersRepo.findById(session.userId)
        if (Option.isSome(person)) {
          yield* mail.notice(
            person.value.email,
            "Your Quire password was changed",
            `The password of your Quire account ${person.value.email} was changed, and your other sessions were signed out.\n\n` +
              `If you did not change it, ask your Quire administrator to secure your account.\n`
          )
        }
      })

      return PasswordSignIn.of({ setupOpen, setup, signIn, changePassword, setPassword })
    })
  )
}
