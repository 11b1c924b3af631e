/**
 * Server side of the bearer-token middleware: the token's owner becomes the Actor. On a real
 * PostgreSQL it also listens for tokens revoked by other processes, so that none of them keeps
 * accepting a revoked token from its cache.
 */
import { Effect, Layer, Option, Queue, Redacted, Schedule } from "effect"
import { PgClient } from "@effect/sql-pg"
import { ApiErrors, Authentication } from "@quire/api"
import { Database } from "@quire/db"
import { revokedChannel, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"

/**
 * Forgets cached tokens as other processes revoke them (`revokedChannel`). The first
 * `LISTEN` is confirmed before the server starts; if the connection is lost the whole cache is
 * dropped (notifications may have been missed) and the listener subscribes again.
 */
const listenForRevocations = Effect.fnUntraced(function*(pg: PgClient.PgClient, users: Users["Service"]) {
  const consume = (queue: Queue.Dequeue<{ readonly payload: string }, unknown>) =>
    Effect.forever(Effect.flatMap(Queue.take(queue), (notification) => users.forgetTokens([notification.payload])))
  const resubscribe = Effect.scoped(
    Effect.flatMap(pg.listen(revokedChannel), (queue) => Effect.andThen(users.forgetTokens(), consume(queue)))
  ).pipe(
    Effect.tapError((error) => Effect.logWarning("Lost the token revocation listener; subscribing again", error)),
    Effect.retry(Schedule.spaced("1 second"))
  )
  const first = yield* pg.listen(revokedChannel)
  yield* consume(first).pipe(
    Effect.tapError((error) => Effect.logWarning("Lost the token revocation listener; subscribing again", error)),
    Effect.ignore,
    Effect.andThen(users.forgetTokens()),
    Effect.andThen(resubscribe),
    Effect.forkScoped
  )
})

export const layer = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const users = yield* Users
    // Embedded PGlite is one process (revocations there invalidate its own cache) and has a
    // single connection, which a listener would hold for ever.
    const database = yield* Effect.serviceOption(Database.DatabaseInfo)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    if (Option.isSome(database) && database.value.kind === "postgres" && Option.isSome(pg)) {
      yield* listenForRevocations(pg.value, users).pipe(Effect.orDie)
    }
    return Authentication.of({
      bearer: Effect.fnUntraced(function*(httpEffect, { credential }) {
        const caller = yield* users.caller(Redacted.value(credential))
        if (Option.isNone(caller)) {
          return yield* ApiErrors.Unauthorized.of("A valid API token is required: send `Authorization: Bearer <token>`")
        }
        // A single sign-on token carries its organization as the caller's scope (docs/sso.md).
        return yield* Effect.provideService(httpEffect, Actor.Actor, caller.value.actor)
      })
    })
  })
)
