/**
 * Passwords: argon2id hashes (@node-rs/argon2, OWASP's parameters: 19 MiB, 2 passes, 1 lane),
 * the rules a new password and an account's fields must meet, and a dummy hash verified when
 * there is no account, so that an unknown email takes as long to refuse as a wrong password.
 */
import { Context, Effect, Layer, Option } from "effect"
import { hash, verify } from "@node-rs/argon2"
import { randomBytes } from "node:crypto"
import { Errors } from "@quire/kernel"

/** The shortest password accepted. */
export const minPasswordLength = 10
/** The longest (argon2 hashes anything, but a megabyte body is not a password). */
export const maxPasswordLength = 1024

const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

const invalid = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

/** A new password as given, when it meets the rules. */
export const validPassword = (field: string, password: unknown): Effect.Effect<string, Errors.InvalidInput> => {
  if (typeof password !== "string") return invalid(field, "required, a string")
  if ([...password].length < minPasswordLength) return invalid(field, `must be at least ${minPasswordLength} characters`)
  if (password.length > maxPasswordLength) return invalid(field, `must be at most ${maxPasswordLength} characters`)
  return Effect.succeed(password)
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** An email as stored (trimmed, lower case), when it looks like one. */
export const validEmail = (field: string, email: unknown): Effect.Effect<string, Errors.InvalidInput> => {
  if (typeof email !== "string") return invalid(field, "required, an email address")
  const trimmed = email.trim().toLowerCase()
  if (trimmed.length > 254 || !emailPattern.test(trimmed)) return invalid(field, "must be an email address (name@example.com)")
  return Effect.succeed(trimmed)
}

/** A display name, trimmed, 1 to 100 characters. */
export const validDisplayName = (field: string, name: unknown): Effect.Effect<string, Errors.InvalidInput> => {
  if (typeof name !== "string" || name.trim() === "") return invalid(field, "required, a name to show")
  if (name.trim().length > 100) return invalid(field, "must be at most 100 characters")
  return Effect.succeed(name.trim())
}

const hashOf = (password: string) => Effect.promise(() => hash(password, options))

export class Passwords extends Context.Service<Passwords, {
  /** The argon2id hash (PHC string) of `password`, with a new random salt. */
  readonly hash: (password: string) => Effect.Effect<string>
  /** Whether `password` is the one `stored` hashes; without a stored hash, a dummy is verified and the answer is false. */
  readonly verify: (stored: Option.Option<string>, password: string) => Effect.Effect<boolean>
}>()("@quire/identity/Passwords") {
  static readonly layer = Layer.effect(
    Passwords,
    Effect.gen(function*() {
      const dummy = yield* hashOf(randomBytes(16).toString("base64url"))
      return Passwords.of({
        hash: hashOf,
        verify: (stored, password) =>
          Effect.promise(() => verify(Option.getOrElse(stored, () => dummy), password).catch(() => false)).pipe(
            Effect.map((matches) => matches && Option.isSome(stored))
          )
      })
    })
  )
}
