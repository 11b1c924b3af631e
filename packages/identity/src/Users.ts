/** Use cases on users: the bootstrap administrator, accounts, tokens and authentication. */
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { AuditLog, type AuditLogShape, caller as auditCaller, userRef } from "@quire/audit"
import { Actor, BoundedCache, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import type { ApiToken, User } from "./domain/Identity.ts"
import { generateSecret, hashSecret } from "./Tokens.ts"
import { UsersRepo, type UsersRepoShape } from "./UsersRepo.ts"
import { EmailVerificationRepo } from "./EmailVerificationRepo.ts"

export interface NewToken {
  readonly token: ApiToken
  /** The secret, shown once: only its hash is stored. */
  readonly secret: string
}

export interface UsersShape {
  /**
   * Makes sure the instance administrator exists with `secret` as one of its tokens (idempotent).
   * Without a secret, a token is generated only when the administrator is new; it is returned.
   * `revoked` counts the previous bootstrap tokens revoked because the configured one changed.
   */
  readonly bootstrapAdmin: (
    email: string,
    secret: string | undefined
  ) => Effect.Effect<{ readonly user: User; readonly generated: string | undefined; readonly revoked: number }>
  /** The owner of a bearer token, if the token is known. */
  readonly authenticate: (secret: string) => Effect.Effect<Option.Option<User>>
  /** The caller a bearer token makes: its owner, and the organization it is scoped to if any. */
  readonly caller: (secret: string) => Effect.Effect<Option.Option<{ readonly user: User; readonly actor: Actor.ActorShape }>>
  readonly current: Effect.Effect<User, Errors.NotFound, Actor.Actor>
  readonly get: (userId: string) => Effect.Effect<User, Errors.NotFound, Actor.Actor>
  readonly create: (input: { readonly email: string; readonly displayName: string }) => Effect.Effect<User, Errors.Forbidden | Errors.Conflict, Actor.Actor>
  readonly update: (userId: string, input: { readonly displayName?: string | undefined; readonly photoURL?: string | undefined }) => Effect.Effect<User, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /**
   * Issues a token for the user (the user or an instance administrator). A caller scoped to one
   * organization (single sign-on) issues tokens of that scope only.
   */
  readonly createToken: (
    userId: string,
    input: { readonly label?: string | undefined; readonly expiresAt?: Date | undefined }
  ) => Effect.Effect<NewToken, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput, Actor.Actor>
  /** The user's tokens, oldest first, without their secrets (the user or an instance administrator). */
  readonly listTokens: (
    userId: string,
    request: Pagination.PageRequest
  ) => Effect.Effect<Pagination.Page<ApiToken>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The instance administrators, oldest first (an instance administrator only). */
  readonly listInstanceAdmins: Effect.Effect<ReadonlyArray<User>, Errors.Forbidden, Actor.Actor>
  /**
   * Grants (true) or withdraws (false) instance administration: an instance administrator only
   * (after first-run setup, the only way it is granted). Conflict when it would withdraw the
   * last instance administrator; NotFound when there is no such user. The user's tokens and
   * sessions act with the new rights at once in this process (within `TokenCacheTtl` in others).
   */
  readonly setInstanceAdmin: (userId: string, instanceAdmin: boolean) => Effect.Effect<User, Errors.NotFound | Errors.Forbidden | Errors.Conflict, Actor.Actor>
  /** Revokes one of the user's tokens: it stops authenticating at once, in every process. */
  readonly revokeToken: (userId: string, tokenId: string) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
  /**
   * Forgets what this process cached about the tokens with these hashes (every token: none given),
   * for a process that learnt that another one revoked them.
   */
  readonly forgetTokens: (hashes?: ReadonlyArray<string>) => Effect.Effect<void>
}

/** How long a token's owner is remembered between authentications: a second, unless provided otherwise (tests). */
export const TokenCacheTtl = Context.Reference<Duration.Duration>("@quire/identity/TokenCacheTtl", {
  defaultValue: () => Duration.seconds(1)
})

/** `lastUsedAt` is written at most once per this interval and token, so requests do not each write. */
export const lastUsedPrecision = Duration.minutes(1)

/** What a new token is, besides its owner and when it was made. */
type TokenOptions = Pick<ApiToken, "label" | "expiresAt" | "bootstrap" | "organizationId" | "fromSession">

/** A fresh instance's configured administrator email that an existing account holds: the start fails. */
const takenEmail = (email: string) =>
  new Error(`QUIRE_ADMIN_EMAIL: the instance has no administrator and ${email} is an existing account's email; configure another one`)

/** Whether the caller is an instance administrator (Forbidden otherwise), to `action`. */
const ensureInstanceAdmin = Effect.fnUntraced(function*(action: string) {
  const actor = yield* Actor.Actor
  if (!actor.instanceAdmin) {
    return yield* new Errors.Forbidden({ reason: `Only an instance administrator can ${action}` })
  }
})

/** Who a token's secret speaks for (see `caller` below), with the caches that make it cheap on every request. */
const tokenCallers = (users: UsersRepoShape) =>
  Effect.gen(function*() {
  // Every request authenticates, so token owners are cached for a second per process: a busy
  // token is looked up once a second rather than on every request, the query short requests
  // would otherwise spend most on. Unknown tokens are not cached, so a new token works at once; a
  // change to a known token's owner (instance administrator flag) is seen by every process
  // within `TokenCacheTtl`, as every per-process cache must.
  // A revoked token is forgotten at once by the process that revokes it, and by the others
  // through `forgetTokens` (the server listens for the SQL adapter's notifications).
  type Owner = Option.Option.Value<Effect.Success<ReturnType<UsersRepoShape["findTokenOwner"]>>>
  const owners = yield* BoundedCache.make<string, { readonly owner: Owner; readonly at: number }>({ name: "token_owners", capacity: 10_000 })
  const ttl = Duration.toMillis(yield* TokenCacheTtl)
  const ownerOf = Effect.fnUntraced(function*(hash: string) {
    const nowMs = yield* Clock.currentTimeMillis
    const kept = owners.peek(hash)
    const fresh = kept !== undefined && nowMs - kept.at < ttl
    owners.record(fresh)
    if (fresh) return Option.some(kept.owner)
    const found = yield* users.findTokenOwner(hash)
    if (Option.isSome(found)) owners.set(hash, { owner: found.value, at: nowMs })
    else owners.delete(hash)
    return found
  })
  // When this process last recorded each token's use, so that it writes at most once per interval.
  const touched = yield* BoundedCache.make<string, number>({ name: "token_uses", capacity: 10_000 })
  const precision = Duration.toMillis(lastUsedPrecision)
  const recordUse = (hash: string, token: ApiToken, nowMs: number) => {
    const last = Math.max(token.lastUsedAt?.getTime() ?? 0, touched.peek(hash) ?? 0)
    if (nowMs - last < precision) return Effect.void
    touched.set(hash, nowMs)
    // Bookkeeping: a failure to record it must not fail the request it authenticates.
    return users.touchToken(hash, new Date(nowMs), new Date(nowMs - precision)).pipe(
      Effect.catchCause((cause) => Effect.logWarning("Could not record an API token's last use", cause))
    )
  }
  const caller = Effect.fnUntraced(function*(secret: string) {
    const hash = hashSecret(secret)
    const found = yield* ownerOf(hash)
    if (Option.isNone(found)) return Option.none()
    const nowMs = yield* Clock.currentTimeMillis
    const { token, user } = found.value
    if (token.expiresAt !== null && token.expiresAt.getTime() <= nowMs) return Option.none()
    yield* recordUse(hash, token, nowMs)
    // A scoped token speaks for one organization's member, never for the instance's administrator.
    const actor: Actor.ActorShape = token.organizationId === null
      ? { userId: user.id, instanceAdmin: user.instanceAdmin }
      : { userId: user.id, instanceAdmin: false, scope: token.organizationId }
    return Option.some({ user, actor })
  })
  const authenticate = (secret: string) => Effect.map(caller(secret), Option.map((found) => found.user))
  const forgetTokens = (hashes?: ReadonlyArray<string>) =>
    hashes === undefined
      ? Effect.sync(() => {
        owners.clear()
        touched.clear()
      })
      : Effect.sync(() => {
        for (const hash of hashes) {
          owners.delete(hash)
          touched.delete(hash)
        }
      })
    return { caller, authenticate, forgetTokens }
  })

/** `listInstanceAdmins` and `setInstanceAdmin` over the port (see `UsersShape`). */
const instanceAdministration = (
  users: UsersRepoShape,
  transactor: Transactor.Transactor["Service"],
  forgetTokens: UsersShape["forgetTokens"],
  audit: AuditLogShape
): Pick<UsersShape, "listInstanceAdmins" | "setInstanceAdmin"> => ({
  listInstanceAdmins: Effect.andThen(ensureInstanceAdmin("list the instance administrators"), users.listInstanceAdmins),
  setInstanceAdmin: Effect.fn("Users.setInstanceAdmin")(function*(userId: string, instanceAdmin: boolean) {
    yield* ensureInstanceAdmin("grant or withdraw instance administration")
    const user = yield* transactor.transaction(Effect.gen(function*() {
      // Read (and, in SQL, hold) the administrators first: two withdrawals at once see each other.
      const admins = yield* users.listInstanceAdmins
      const found = yield* users.findById(userId)
      if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "User", id: userId })
      if (found.value.instanceAdmin === instanceAdmin) return found.value
      if (!instanceAdmin && admins.every((admin) => admin.id === userId)) {
        return yield* new Errors.Conflict({ reason: "The last instance administrator cannot be withdrawn: grant it to another user first" })
      }
      const updated = Option.getOrThrow(yield* users.update(userId, { instanceAdmin }))
      yield* audit.record({
        organizationId: null,
        action: instanceAdmin ? "instance.admin-granted" : "instance.admin-withdrawn",
        actor: yield* auditCaller,
        target: userRef(updated.id, updated.email)
      })
      return updated
    }))
    // Its tokens act with the new rights at once here (sessions read the person on each request).
    yield* forgetTokens()
    return user
  })
})

/** `createToken`, `listTokens` and `revokeToken` over the port (see `UsersShape`), with the service's own helpers. */
const tokenManagement = (
  users: UsersRepoShape,
  transactor: Transactor.Transactor["Service"],
  own: {
    readonly findUser: (userId: string) => Effect.Effect<User, Errors.NotFound>
    readonly ensureSelfOrAdmin: (userId: string, action: string) => Effect.Effect<User, Errors.NotFound | Errors.Forbidden, Actor.Actor>
    readonly issueToken: (userId: string, secret: string, options: TokenOptions) => Effect.Effect<ApiToken>
    readonly forgetTokens: UsersShape["forgetTokens"]
  },
  audit: AuditLogShape
): Pick<UsersShape, "createToken" | "listTokens" | "revokeToken"> => {
  const { ensureSelfOrAdmin, findUser, forgetTokens, issueToken } = own

  // Listing or revoking someone else's tokens reveals nothing: anyone but the user or an administrator gets NotFound.
  const ensureOwnTokens = Effect.fnUntraced(function*(userId: string) {
    const actor = yield* Actor.Actor
    if (actor.userId !== userId && !actor.instanceAdmin) {
      return yield* new Errors.NotFound({ resource: "User", id: userId })
    }
    return yield* findUser(userId)
  })

  const createToken = Effect.fn("Users.createToken")(function*(
    userId: string,
    input: { readonly label?: string | undefined; readonly expiresAt?: Date | undefined }
  ) {
    const actor = yield* Actor.Actor
    yield* ensureSelfOrAdmin(userId, "create tokens for this user")
    if (input.expiresAt !== undefined && input.expiresAt.getTime() <= (yield* Clock.currentTimeMillis)) {
      return yield* new Errors.InvalidInput({ field: "expiresAt", reason: "must be in the future" })
    }
    const secret = generateSecret()
    const token = yield* transactor.transaction(Effect.gen(function*() {
      const token = yield* issueToken(userId, secret, {
        label: input.label ?? null,
        expiresAt: input.expiresAt ?? null,
        bootstrap: false,
        organizationId: actor.scope ?? null,
        fromSession: actor.viaSession === true
      })
      yield* audit.record({
        organizationId: token.organizationId,
        action: "token.created",
        actor: yield* auditCaller,
        target: { type: "token", id: token.id, ...(token.label === null ? {} : { label: token.label }) },
        payload: { owner: userId, expiresAt: token.expiresAt?.toISOString() ?? null }
      })
      return token
    }))
    return { token, secret }
  })

  // A user holds few tokens: they are paged here, over the whole list, rather than in each adapter.
  const listTokens = Effect.fn("Users.listTokens")(function*(userId: string, request: Pagination.PageRequest) {
    yield* ensureOwnTokens(userId)
    const after = yield* Pagination.afterOf(request, ["number", "string"])
    return yield* Pagination.paginateArray(
      yield* users.listTokens(userId),
      (token) => [token.createdAt.getTime(), token.id],
      { order: "asc", after, limit: Pagination.limitOf(request) }
    )
  })

  const revokeToken = Effect.fn("Users.revokeToken")(function*(userId: string, tokenId: string) {
    yield* ensureOwnTokens(userId)
    const hash = yield* transactor.transaction(Effect.tap(users.deleteToken(userId, tokenId), (deleted) =>
      Option.isNone(deleted) ? Effect.void : Effect.flatMap(auditCaller, (actor) =>
        audit.record({ organizationId: null, action: "token.revoked", actor, target: { type: "token", id: tokenId }, payload: { owner: userId } }))))
    if (Option.isNone(hash)) return yield* new Errors.NotFound({ resource: "Token", id: tokenId })
    yield* forgetTokens([hash.value])
  })

  return { createToken, listTokens, revokeToken }
}

export class Users extends Context.Service<Users, UsersShape>()("@quire/identity/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const [users, verifications, ids] = [yield* UsersRepo, yield* EmailVerificationRepo, yield* Ids.Ids]
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const issueToken = Effect.fnUntraced(function*(userId: string, secret: string, options: TokenOptions) {
        const token: ApiToken = { id: yield* ids.make, userId, createdAt: yield* now, lastUsedAt: null, ...options }
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
        // Invitations sent to this email stay offers: the person accepts them once signed in.
        yield* users.insert(user)
        return user
      })

      const bootstrapOnce = Effect.fn("Users.bootstrapAdmin")(function*(email: string, secret: string | undefined) {
        // The bootstrap token's holder (setup may have changed their email), else the first
        // administrator: the email only names the one a fresh instance creates, never promotes.
        const holder = yield* users.findBootstrapAdmin
        const existing = Option.isSome(holder) ? holder : yield* users.findFirstInstanceAdmin
        const user = Option.isSome(existing) ? existing.value : yield* insertUser(email, "Administrator", true)
        const generated = secret === undefined && Option.isNone(existing) ? generateSecret() : undefined
        const wanted = secret ?? generated
        if (wanted === undefined) return { user, generated, revoked: 0 }
        const hash = hashSecret(wanted)
        if (Option.isNone(yield* users.findTokenByHash(hash))) {
          yield* issueToken(user.id, wanted, { label: "bootstrap", expiresAt: null, bootstrap: true, organizationId: null, fromSession: false })
        }
        // The configured token changed: the one it replaces stops working.
        const revoked = yield* users.deleteBootstrapTokens(user.id, hash)
        yield* forgetTokens(revoked)
        return { user, generated, revoked: revoked.length }
      }, transactor.transaction)

      // Servers started together on a new database each create the administrator: the one whose insert meets
      // the other's (Conflict once it commits) reads it again. Again: a non-administrator holds the email.
      const bootstrapAdmin = (email: string, secret: string | undefined) =>
        bootstrapOnce(email, secret).pipe(Effect.catchTag("Conflict", () => bootstrapOnce(email, secret)), Effect.catchTag("Conflict", () => Effect.die(takenEmail(email))))

      const { caller, authenticate, forgetTokens } = yield* tokenCallers(users)

      const current = Effect.flatMap(Effect.service(Actor.Actor), (actor) => findUser(actor.userId))

      const create = Effect.fn("Users.create")(function*(input: { readonly email: string; readonly displayName: string }) {
        const actor = yield* Actor.Actor
        if (!actor.instanceAdmin) {
          return yield* new Errors.Forbidden({ reason: "Only an instance administrator can create users" })
        }
        // The operator vouches for the email of an account they make (as for the members they add).
        return yield* transactor.transaction(Effect.tap(insertUser(input.email, input.displayName, false), (user) => verifications.markVerified(user.id, user.email, user.createdAt)))
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

      return Users.of({
        bootstrapAdmin,
        ...instanceAdministration(users, transactor, forgetTokens, audit),
        authenticate,
        caller,
        current,
        get: (userId) => findUser(userId),
        create,
        update,
        ...tokenManagement(users, transactor, { findUser, ensureSelfOrAdmin, issueToken, forgetTokens }, audit),
        forgetTokens
      })
    })
  )
}
