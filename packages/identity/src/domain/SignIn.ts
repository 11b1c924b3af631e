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
