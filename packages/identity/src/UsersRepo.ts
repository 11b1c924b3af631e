/** Port: users and their API tokens (stored only as hashes). */
import { Context, Effect, Layer, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { ApiToken, User } from "./domain/Identity.ts"
import { IdentityMemory } from "./IdentityMemory.ts"

export interface UsersRepoShape {
  /** Stores a new user; Conflict when another user has the same email, compared ignoring case. */
  readonly insert: (user: User) => Effect.Effect<void, Errors.Conflict>
  readonly findById: (id: string) => Effect.Effect<Option.Option<User>>
  /** The user with this email, compared ignoring case. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>
  readonly update: (id: string, patch: { readonly displayName?: string; readonly photoURL?: string | null; readonly instanceAdmin?: boolean }) => Effect.Effect<Option.Option<User>>
  readonly insertToken: (token: ApiToken, hash: string) => Effect.Effect<void>
  readonly findTokenByHash: (hash: string) => Effect.Effect<Option.Option<ApiToken>>
  /** The owner of the token with this hash: the lookup behind every authenticated request. */
  readonly findUserByTokenHash: (hash: string) => Effect.Effect<Option.Option<User>>
}

export class UsersRepo extends Context.Service<UsersRepo, UsersRepoShape>()("@quire/identity/UsersRepo") {
  static readonly layerMemory = Layer.effect(
    UsersRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      const byEmail = (email: string) =>
        Array.from(store.users.values()).find((u) => u.email.toLowerCase() === email.toLowerCase())
      return UsersRepo.of({
        insert: (user) =>
          Effect.suspend(() => {
            if (byEmail(user.email) !== undefined) {
              return Effect.fail(new Errors.Conflict({ reason: `A user with email ${user.email} already exists` }))
            }
            store.users.set(user.id, user)
            return Effect.void
          }),
        findById: (id) => Effect.sync(() => Option.fromNullishOr(store.users.get(id))),
        findByEmail: (email) => Effect.sync(() => Option.fromNullishOr(byEmail(email))),
        update: (id, patch) =>
          Effect.sync(() => {
            const user = store.users.get(id)
            if (user === undefined) return Option.none()
            const next: User = { ...user, ...patch }
            store.users.set(id, next)
            return Option.some(next)
          }),
        insertToken: (token, hash) => Effect.sync(() => void store.tokens.set(hash, token)),
        findTokenByHash: (hash) => Effect.sync(() => Option.fromNullishOr(store.tokens.get(hash))),
        findUserByTokenHash: (hash) =>
          Effect.sync(() => {
            const token = store.tokens.get(hash)
            return Option.fromNullishOr(token === undefined ? undefined : store.users.get(token.userId))
          })
      })
    })
  )
}
