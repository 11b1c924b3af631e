/** Port: which users proved their email, and the links that prove one (stored as hashes of their secret). */
import { Context, Effect, Layer, Option } from "effect"
import { type EmailVerificationRow, IdentityMemory } from "./IdentityMemory.ts"

export type { EmailVerificationRow } from "./IdentityMemory.ts"

export interface EmailVerificationRepoShape {
  /** Whether the user proved the email they have now (a changed email is unproven again). */
  readonly isVerified: (userId: string) => Effect.Effect<boolean>
  /** Records that the user proved `email`; nothing when it is no longer their email. */
  readonly markVerified: (userId: string, email: string, at: Date) => Effect.Effect<void>
  /** Stores a link under the hash of its secret. */
  readonly insertLink: (hash: string, row: EmailVerificationRow) => Effect.Effect<void>
  /** Removes and returns the link with this hash (used once), expired or not. */
  readonly takeLink: (hash: string) => Effect.Effect<Option.Option<EmailVerificationRow>>
  /** Deletes links expired at `now`; answers how many. */
  readonly purgeLinks: (now: Date) => Effect.Effect<number>
}

export class EmailVerificationRepo extends Context.Service<EmailVerificationRepo, EmailVerificationRepoShape>()(
  "@quire/identity/EmailVerificationRepo"
) {
  static readonly layerMemory = Layer.effect(
    EmailVerificationRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      const currentEmail = (userId: string) => store.users.get(userId)?.email.toLowerCase()
      return EmailVerificationRepo.of({
        isVerified: (userId) =>
          Effect.sync(() => {
            const proven = store.verifiedEmails.get(userId)
            return proven !== undefined && proven === currentEmail(userId)
          }),
        markVerified: (userId, email) =>
          Effect.sync(() => {
            if (currentEmail(userId) === email.toLowerCase()) store.verifiedEmails.set(userId, email.toLowerCase())
          }),
        insertLink: (hash, row) => Effect.sync(() => void store.emailVerifications.set(hash, row)),
        takeLink: (hash) =>
          Effect.sync(() => {
            const row = store.emailVerifications.get(hash)
            if (row !== undefined) store.emailVerifications.delete(hash)
            return Option.fromNullishOr(row)
          }),
        purgeLinks: (now) =>
          Effect.sync(() => {
            const ended = Array.from(store.emailVerifications).filter(([, row]) => row.expiresAt <= now).map(([hash]) => hash)
            for (const hash of ended) store.emailVerifications.delete(hash)
            return ended.length
          })
      })
    })
  )
}
