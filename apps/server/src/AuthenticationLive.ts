/**
 * Server side of the bearer-token middleware: the token's owner becomes the Actor. Without a
 * bearer token, the browser app's session cookie (SessionCookie) authenticates instead, but a
 * request that would change something with it must come from our own origin (its `Origin`, or
 * `Sec-Fetch-Site: same-origin`): a page of another site can never act with the cookie
 * (docs/sign-in.md). On a real PostgreSQL it also listens for tokens revoked by other processes,
 * so that none of them keeps accepting a revoked token from its cache. What the request then does
 * is audited as coming from its address and user agent, through the app (cookie) or the API (token).
 */
import { Effect, Layer, Option, Queue, Redacted, Schedule } from "effect"
import { HttpServerRequest } from "effect/http"
import { PgClient } from "@effect/sql-pg"
import { AuditOrigin } from "@quire/audit"
import { anonymousOperations, ApiErrors, Authentication, notificationsTokenOperations, siteReaderOperations } from "@quire/api"
import { Database } from "@quire/db"
import { openNotificationsToken, revokedChannel, sessionActor, SignInSessions, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { SiteReaders } from "@quire/sites"
import { PublicUrl } from "./PublicUrl.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"
import * as SessionCookie from "./SessionCookie.ts"

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

/** Who calls one of `anonymousOperations` without a token (no user has this id). */
export const anonymousActor: Actor.ActorShape = { userId: "anonymous", instanceAdmin: false }

/** Whether the caller sent no credential (one of `anonymousOperations`, called as GitBook's renderer calls it). */
export const isAnonymous = (actor: Actor.ActorShape): boolean => actor.userId === anonymousActor.userId && actor.siteReader === undefined

export const layer = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const users = yield* Users
    const sessions = yield* SignInSessions
    const siteReaders = yield* SiteReaders
    const origin = new URL((yield* PublicUrl).base).origin
    const trustProxy = yield* Effect.orDie(TrustProxy)
    const auditOrigin = (request: HttpServerRequest.HttpServerRequest, source: "ui" | "api") =>
      ({ source, address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] })
    // Embedded PGlite is one process (revocations there invalidate its own cache) and has a
    // single connection, which a listener would hold for ever.
    const database = yield* Effect.serviceOption(Database.DatabaseInfo)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    if (Option.isSome(database) && database.value.kind === "postgres" && Option.isSome(pg)) {
      yield* listenForRevocations(pg.value, users).pipe(Effect.orDie)
    }
    return Authentication.of({
      bearer: Effect.fnUntraced(function*(httpEffect, { credential, endpoint }) {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (Redacted.value(credential) === "" && request.cookies[SessionCookie.name] !== undefined) {
          const session = yield* SessionCookie.current.pipe(Effect.provideService(SignInSessions, sessions))
          if (Option.isNone(session)) {
            return yield* ApiErrors.Unauthorized.of("The session has ended: sign in again, or send `Authorization: Bearer <token>`")
          }
          // Belt and braces: AuthRoutes' global middleware answers such a request 403 before it gets here.
          if (!SessionCookie.isSafeMethod(request.method) && !SessionCookie.fromOwnOrigin(request, origin)) {
            return yield* ApiErrors.Unauthorized.of("Cross-origin requests cannot act with the session cookie")
          }
          const actor = Effect.provideService(httpEffect, Actor.Actor, sessionActor(session.value))
          return yield* Effect.provideService(actor, AuditOrigin, auditOrigin(request, "ui"))
        }
        // What a site's URL shows a visitor is as public as the site, and a site open to everyone takes
        // its visitors' events: GitBook's renderer asks the one and posts the other without a token.
        if (Redacted.value(credential) === "" && anonymousOperations.has(endpoint.identifier)) {
          return yield* Effect.provideService(httpEffect, Actor.Actor, anonymousActor)
        }
        const reader = yield* siteReaders.reader(Redacted.value(credential))
        if (Option.isSome(reader)) {
          if (!siteReaderOperations.has(endpoint.identifier)) {
            return yield* ApiErrors.Unauthorized.of("This token reads one published site only: this operation needs an API token")
          }
          const actor: Actor.ActorShape = { userId: `site-reader:${reader.value.siteId}`, instanceAdmin: false, siteReader: reader.value }
          return yield* Effect.provideService(httpEffect, Actor.Actor, actor)
        }
        // A notifications token (createUserNotificationsToken) opens its person's notifications only.
        const notified = yield* openNotificationsToken(Redacted.value(credential))
        if (Option.isSome(notified)) {
          if (!notificationsTokenOperations.has(endpoint.identifier)) {
            return yield* ApiErrors.Unauthorized.of("This token opens the notifications only: this operation needs an API token")
          }
          const actor = Effect.provideService(httpEffect, Actor.Actor, { userId: notified.value, instanceAdmin: false })
          return yield* Effect.provideService(actor, AuditOrigin, auditOrigin(request, "api"))
        }
        const caller = yield* users.caller(Redacted.value(credential))
        if (Option.isNone(caller)) {
          return yield* ApiErrors.Unauthorized.of("A valid API token is required: send `Authorization: Bearer <token>`")
        }
        // A single sign-on token carries its organization as the caller's scope (docs/sso.md).
        const actor = Effect.provideService(httpEffect, Actor.Actor, caller.value.actor)
        return yield* Effect.provideService(actor, AuditOrigin, auditOrigin(request, "api"))
      })
    })
  })
)
