/** What a sign-in session refuses: a CLI's sign-in request or code it cannot honour. */
import { Schema } from "effect"

/** A sign-in step refused (a wrong PKCE verifier, a used or expired code...); `reason` says which and why. */
export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/** A sign-in with a wrong email or a wrong password: one answer for both, so that it reveals no account. */
export class SignInFailed extends Schema.TaggedError<SignInFailed>()("SignInFailed", {}) {
  override get message(): string {
    return "Wrong email or password."
  }
}

/** Too many sign-in attempts for an email or from an address: none is tried before `retryAfterSeconds`. */
export class TooManyAttempts extends Schema.TaggedError<TooManyAttempts>()("TooManyAttempts", {
  retryAfterSeconds: Schema.Number,
  /** What was attempted too often ("sign-in attempts" when absent). */
  attempts: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return `Too many ${this.attempts ?? "sign-in attempts"}; try again in ${this.retryAfterSeconds} seconds.`
  }
}

/** First-run setup asked for when it is closed (an administrator has a password) or with a wrong setup code. */
export class SetupClosed extends Schema.TaggedError<SetupClosed>()("SetupClosed", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/**
 * A password (or an invitation's password sign-up) refused because an organization of the person
 * enforces single sign-on: they sign in through its provider instead.
 */
export class SsoRequired extends Schema.TaggedError<SsoRequired>()("SsoRequired", {
  organizationId: Schema.String,
  organizationTitle: Schema.String
}) {
  override get message(): string {
    return `${this.organizationTitle} requires single sign-on: sign in through its identity provider (on the sign-in screen, "Use single sign-on" with your work email) instead of a password.`
  }
}
