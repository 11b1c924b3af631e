/** Use cases on users: the bootstrap administrator, accounts, tokens and authentication. */
import { Cache, Clock, Context, Duration, Effect, Exit, Layer, Option } from "effect"
import { Actor, Errors, Ids, Transactor } from "@quire/kernel"
import type { ApiToken, User } from "./domain/Identity.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import { generateSecret, hashSecret } from "./Tokens.ts"
import { UsersRepo } from "./UsersRepo.ts"

export interface NewToken {
  readonly token: ApiToken
  /** The secret, shown once: only its hash is stored. */
  readonly secret: string
}

export interface UsersShape {
  /**
   * Makes sure the instance administrator exists with `secret` as one of its tokens (idempotent).
   * Without a secret, a token is generated only when the administrator is new; it is returned.
   */
  readonly bootstrapAdmin: (email: string, secret: string | undefined) => Effect.Effect<{ readonly user: User; readonly generated: string | undefined }>
  /** The owner of a bearer token, if the token is known. */
  readonly authenticate: (secret: string) => Effect.Effect<Option.Option<User>>
  readonly current: Effect.Effect<User, Errors.NotFound, Actor.Actor>
  readonly get: (userId: string) => Effect.Effect<User, Errors.NotFound, Actor.Actor>
  readonly create: (input: { readonly email: string; readonly displayName: string }) => Effect.Effect<User, Errors.Forbidden | Errors.Conflict, Actor.Actor>
  readonly update: (userId: string, input: { readonly displayName?: string | undefined; readonly photoURL?: string | undefined }) => Effect.Effect<User, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  readonly createToken: (userId: string, label: string | undefined) => Effect.Effect<NewToken, Errors.NotFound | Errors.Forbidden, Actor.Actor>
}

/** How long a token's owner is remembered between authentications. */
export const tokenCacheTtl = Duration.seconds(5)

export class Users extends Context.Service<Users, UsersShape>()("@quire/identity/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const organizations = yield* OrganizationsRepo
      const members = yield* MembersRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const issueToken = Effect.fnUntraced(function*(userId: string, label: string | null, secret: string) {
        const token: ApiToken = { id: yield* ids.make, userId, label, createdAt: yield* now }
        yield* users.insertToken(token, hashSecret(secret))
        return token
      })

      const findUser = (userId: string) =>
        users.findById(userId).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new Errors.NotFound({ resource: "User", id: userId })),
            onSome: Effect.succeed
          }))
        )

      const insertUser = Effect.fnUntraced(function*(email: string, displayName: string, instanceAdmin: boolean) {
        const user: User = {
          id: yield* ids.make,
          email: email.toLowerCase(),
          displayName,
          photoURL: null,
          instanceAdmin,
          createdAt: yield* now
        }
        yield* users.insert(user)
        // Invitations sent to this email before the account existed take effect now.
        for (const invite of yield* organizations.takeEmailInvites(user.email)) {
          yield* members.add({
            organizationId: invite.organizationId,
            userId: user.id,
            role: invite.role,
            sso: invite.sso,
            joinedAt: user.createdAt
          })
        }
        return user
      })

      const bootstrapAdmin = Effect.fn("Users.bootstrapAdmin")(function*(email: string, secret: string | undefined) {
        const existing = yield* users.findByEmail(email)
        const user = Option.isSome(existing)
          ? Option.getOrThrow(yield* users.update(existing.value.id, { instanceAdmin: true }))
          : yield* insertUser(email, "Administrator", true).pipe(Effect.orDie)
        const generated = secret === undefined && Option.isNone(existing) ? generateSecret() : undefined
        const wanted = secret ?? generated
        if (wanted !== undefined && Option.isNone(yield* users.findTokenByHash(hashSecret(wanted)))) {
          yield* issueToken(user.id, "bootstrap", wanted)
        }
        return { user, generated }
      }, transactor.transaction)

      // Every request authenticates, so token owners are cached for a few seconds per process:
      // measured by `pnpm bench`, it removes the query that dominated short requests. Unknown
      // tokens are not cached, so a new token works at once; a change to a known token's owner
      // (instance administrator flag) is seen within `tokenCacheTtl`.
      const owners = yield* Cache.makeWith((hash: string) => users.findUserByTokenHash(hash), {
        capacity: 10_000,
        timeToLive: (exit) => (Exit.isSuccess(exit) && Option.isSome(exit.value) ? tokenCacheTtl : Duration.zero)
      })
      const authenticate = (secret: string) => Cache.get(owners, hashSecret(secret))

      const current = Effect.flatMap(Effect.service(Actor.Actor), (actor) => findUser(actor.userId))

      const create = Effect.fn("Users.create")(function*(input: { readonly email: string; readonly displayName: string }) {
        const actor = yield* Actor.Actor
        if (!actor.instanceAdmin) {
          return yield* new Errors.Forbidden({ reason: "Only an instance administrator can create users" })
        }
        return yield* transactor.transaction(insertUser(input.email, input.displayName, false))
      })

      const ensureSelfOrAdmin = Effect.fnUntraced(function*(userId: string, action: string) {
        const actor = yield* Actor.Actor
        const user = yield* findUser(userId)
        if (actor.userId !== userId && !actor.instanceAdmin) {
          return yield* new Errors.Forbidden({ reason: `Only the user or an instance administrator can ${action}` })
        }
        return user
      })

      const update = Effect.fn("Users.update")(function*(
        userId: string,
        input: { readonly displayName?: string | undefined; readonly photoURL?: string | undefined }
      ) {
        yield* ensureSelfOrAdmin(userId, "update this user")
        const patch = {
          ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
          ...(input.photoURL === undefined ? {} : { photoURL: input.photoURL })
        }
        return Option.getOrThrow(yield* users.update(userId, patch))
      })

      const createToken = Effect.fn("Users.createToken")(function*(userId: string, label: string | undefined) {
        yield* ensureSelfOrAdmin(userId, "create tokens for this user")
        const secret = generateSecret()
        const token = yield* issueToken(userId, label ?? null, secret)
        return { token, secret }
      })

      return Users.of({
        bootstrapAdmin,
        authenticate,
        current,
        get: (userId) => findUser(userId),
        create,
        update,
        createToken
      })
    })
  )
}
