/**
 * Proving an email: a person asks for a link, which goes to their email only (hashed at rest,
 * valid 24 hours, used once), and opening it records that they own the mailbox. An email
 * invitation's own mailed link proves it too (InviteSignUp). What is addressed to an email
 * (invitations, domain joins) is offered only to an account that proved it.
 */
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { Errors, Ids } from "@quire/kernel"
import { TooManyAttempts } from "../domain/SignIn.ts"
import { EmailVerificationRepo } from "../EmailVerificationRepo.ts"
import { hashSecret } from "../Tokens.ts"
import { UsersRepo } from "../UsersRepo.ts"
import { accountMail } from "./AccountMail.ts"
import { SignInRepo } from "./SignInRepo.ts"

/** How long a verification link works. */
export const verificationLinkLifetime = Duration.hours(24)
/** Links one person may ask for per hour. */
const requestsPerHour = 5

export interface EmailVerificationShape {
  /** Whether this instance mails links (QUIRE_SMTP_URL): without it, nobody can ask for one. */
  readonly sendsMail: boolean
  /** Whether the user proved the email they have now. */
  readonly isVerified: (userId: string) => Effect.Effect<boolean>
  /**
   * Mails the user a link that proves their email. Conflict when it is proven already,
   * Forbidden when this instance sends no mail, TooManyAttempts past 5 an hour.
   */
  readonly request: (userId: string) => Effect.Effect<{ readonly email: string }, Errors.Conflict | Errors.Forbidden | Errors.NotFound | TooManyAttempts>
  /** Records the proof a link carries; InvalidInput (field `token`) for an unknown, used or expired link. */
  readonly confirm: (token: unknown) => Effect.Effect<{ readonly userId: string; readonly email: string }, Errors.InvalidInput>
  /** Records that the user owns `email` (a proof made elsewhere: an invitation's mailed link). */
  readonly markVerified: (userId: string, email: string) => Effect.Effect<void>
  /** Deletes the links that expired; answers how many. */
  readonly purgeExpiredLinks: Effect.Effect<number>
}

export class EmailVerification extends Context.Service<EmailVerification, EmailVerificationShape>()("@quire/identity/EmailVerification") {
  static readonly layer = Layer.effect(
    EmailVerification,
    Effect.gen(function*() {
      const repo = yield* EmailVerificationRepo
      const users = yield* UsersRepo
      const attempts = yield* SignInRepo
      const mail = yield* accountMail
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const request = Effect.fn("EmailVerification.request")(function*(userId: string) {
        const user = yield* users.findById(userId)
        if (Option.isNone(user)) return yield* new Errors.NotFound({ resource: "User", id: userId })
        if (yield* repo.isVerified(userId)) return yield* new Errors.Conflict({ reason: `email: ${user.value.email} is confirmed already` })
        if (!mail.delivers) {
          return yield* new Errors.Forbidden({ reason: "This Quire instance sends no email (QUIRE_SMTP_URL): accept an invitation through its link instead" })
        }
        const at = yield* now
        const key = `verify-email:${userId}`
        const counted = yield* attempts.countAttempts(key, at)
        if (counted.count >= requestsPerHour) {
          return yield* new TooManyAttempts({
            attempts: "confirmation emails",
            retryAfterSeconds: Math.max(1, Math.ceil((counted.resetAt.getTime() - at.getTime()) / 1000))
          })
        }
        yield* attempts.addAttempt(key, at, 3_600_000)
        const secret = `quire_verify_${Ids.randomId(40)}`
        const email = user.value.email
        yield* repo.insertLink(hashSecret(secret), { userId, email, expiresAt: new Date(at.getTime() + Duration.toMillis(verificationLinkLifetime)) })
        yield* mail.verification(email, secret)
        return { email }
      })

      const confirm = Effect.fn("EmailVerification.confirm")(function*(token: unknown) {
        const invalid = new Errors.InvalidInput({ field: "token", reason: "this link is unknown, used or expired: ask for a new one" })
        if (typeof token !== "string" || token === "" || token.length > 200) return yield* invalid
        const link = yield* repo.takeLink(hashSecret(token))
        if (Option.isNone(link) || link.value.expiresAt <= (yield* now)) return yield* invalid
        const user = yield* users.findById(link.value.userId)
        if (Option.isNone(user) || user.value.email.toLowerCase() !== link.value.email.toLowerCase()) {
          return yield* new Errors.InvalidInput({ field: "token", reason: "this link was for an email the account no longer has" })
        }
        yield* repo.markVerified(link.value.userId, link.value.email, yield* now)
        return { userId: link.value.userId, email: link.value.email }
      })

      const markVerified = (userId: string, email: string) => Effect.flatMap(now, (at) => repo.markVerified(userId, email, at))

      return EmailVerification.of({ sendsMail: mail.delivers, isVerified: repo.isVerified, request, confirm, markVerified, purgeExpiredLinks: Effect.flatMap(now, repo.purgeLinks) })
    })
  )
}
