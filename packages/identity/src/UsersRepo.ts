/** Port: users and their API tokens (stored only as hashes). */
import { Context, Effect, Layer, Option } from "effect"
import { compareCodePoints, Errors } from "@quire/kernel"
import type { ApiToken, User } from "./domain/Identity.ts"
import { IdentityMemory } from "./IdentityMemory.ts"

export interface UsersRepoShape {
  /** Stores a new user; Conflict when another user has the same email, compared ignoring case. */
  readonly insert: (user: User) => Effect.Effect<void, Errors.Conflict>
  readonly findById: (id: string) => Effect.Effect<Option.Option<User>>
  /** The user with this email, compared ignoring case. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>
  /** Changes the user; a new `email` must be free (the caller checks: a taken one is a defect). */
  readonly update: (
    id: string,
    patch: { readonly displayName?: string; readonly email?: string; readonly photoURL?: string | null; readonly instanceAdmin?: boolean }
  ) => Effect.Effect<Option.Option<User>>
  /** The instance administrator who holds a bootstrap token (the one the server created), the earliest such token's. */
  readonly findBootstrapAdmin: Effect.Effect<Option.Option<User>>
  /** The earliest instance administrator (creation instant, then id); none on a fresh instance. */
  readonly findFirstInstanceAdmin: Effect.Effect<Option.Option<User>>
  /**
   * The instance administrators, oldest first (creation instant, then id). In a transaction, it
   * also holds their rows until the transaction ends, so that two withdrawals at once cannot
   * both see another administrator left.
   */
  readonly listInstanceAdmins: Effect.Effect<ReadonlyArray<User>>
  /**
   * Stores a token under its hash; a hash already stored keeps its token (servers that start
   * together with the same configured token all bootstrap it).
   */
  readonly insertToken: (token: ApiToken, hash: string) => Effect.Effect<void>
  readonly findTokenByHash: (hash: string) => Effect.Effect<Option.Option<ApiToken>>
  /** The token with this hash and its owner: the lookup behind every authenticated request. */
  readonly findTokenOwner: (hash: string) => Effect.Effect<Option.Option<TokenOwner>>
  /** A user's tokens, oldest first (creation instant, then id). */
  readonly listTokens: (userId: string) => Effect.Effect<ReadonlyArray<ApiToken>>
  /**
   * Deletes the user's token `tokenId`; the hash it had, none when there is no such token. Other
   * processes learn of it when the transaction commits (the SQL adapter notifies `revokedChannel`).
   */
  readonly deleteToken: (userId: string, tokenId: string) => Effect.Effect<Option.Option<string>>
  /** Deletes the user's bootstrap tokens except the one with hash `keep`; the hashes deleted. */
  readonly deleteBootstrapTokens: (userId: string, keep: string) => Effect.Effect<ReadonlyArray<string>>
  /** Deletes the user's tokens created through a sign-in session (`fromSession`); the hashes deleted. */
  readonly deleteSessionTokens: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Records that the token was used at `at`, unless it was recorded at or after `notBefore`. */
  readonly touchToken: (hash: string, at: Date, notBefore: Date) => Effect.Effect<void>
}

export interface TokenOwner {
  readonly token: ApiToken
  readonly user: User
}

/** The PostgreSQL notification channel whose payloads are the hashes of deleted tokens. */
export const revokedChannel = "quire_identity_token_revoked"

const byCreation = (a: ApiToken, b: ApiToken) =>
  a.createdAt.getTime() - b.createdAt.getTime() || compareCodePoints(a.id, b.id)

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
        findBootstrapAdmin: Effect.sync(() => {
          const token = Array.from(store.tokens.values())
            .filter((t) => t.bootstrap && store.users.get(t.userId)?.instanceAdmin === true)
            .toSorted(byCreation)[0]
          return Option.fromNullishOr(token === undefined ? undefined : store.users.get(token.userId))
        }),
        findFirstInstanceAdmin: Effect.sync(() =>
          Option.fromNullishOr(
            Array.from(store.users.values())
              .filter((u) => u.instanceAdmin)
              .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareCodePoints(a.id, b.id))[0]
          )
        ),
        listInstanceAdmins: Effect.sync(() =>
          Array.from(store.users.values())
            .filter((u) => u.instanceAdmin)
            .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || compareCodePoints(a.id, b.id))
        ),
        insertToken: (token, hash) =>
          Effect.sync(() => {
            if (!store.tokens.has(hash)) store.tokens.set(hash, token)
          }),
        findTokenByHash: (hash) => Effect.sync(() => Option.fromNullishOr(store.tokens.get(hash))),
        findTokenOwner: (hash) =>
          Effect.sync(() => {
            const token = store.tokens.get(hash)
            const user = token === undefined ? undefined : store.users.get(token.userId)
            return token === undefined || user === undefined ? Option.none() : Option.some({ token, user })
          }),
        listTokens: (userId) =>
          Effect.sync(() => Array.from(store.tokens.values()).filter((t) => t.userId === userId).toSorted(byCreation)),
        deleteToken: (userId, tokenId) =>
          Effect.sync(() => {
            for (const [hash, token] of store.tokens) {
              if (token.id === tokenId && token.userId === userId) {
                store.tokens.delete(hash)
                return Option.some(hash)
              }
            }
            return Option.none()
          }),
        deleteBootstrapTokens: (userId, keep) =>
          Effect.sync(() => {
            const hashes = Array.from(store.tokens)
              .filter(([hash, token]) => token.userId === userId && token.bootstrap && hash !== keep)
              .map(([hash]) => hash)
            for (const hash of hashes) store.tokens.delete(hash)
            return hashes
          }),
        deleteSessionTokens: (userId) =>
          Effect.sync(() => {
            const hashes = Array.from(store.tokens)
              .filter(([, token]) => token.userId === userId && token.fromSession)
              .map(([hash]) => hash)
            for (const hash of hashes) store.tokens.delete(hash)
            return hashes
          }),
        touchToken: (hash, at, notBefore) =>
          Effect.sync(() => {
            const token = store.tokens.get(hash)
            if (token !== undefined && (token.lastUsedAt === null || token.lastUsedAt < notBefore)) {
              store.tokens.set(hash, { ...token, lastUsedAt: at })
            }
          })
      })
    })
  )
}
