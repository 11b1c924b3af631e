/**
 * Notifications tokens (GitBook's `createUserNotificationsToken`): a signed token of one hour that
 * names its person and opens only their notifications, for a client that shows them without
 * holding the person's API token. Signed under a key of its own purpose, so no other token of the
 * instance passes as one.
 */
import { Effect, Option, Schema } from "effect"
import { Actor, Errors, SignedToken } from "@quire/kernel"

/** How long a notifications token opens the notifications: one hour, in seconds. */
export const notificationsTokenSeconds = 3600

const purpose = "quire/identity/notifications-token/v1"
const Claims = Schema.Struct({ sub: Schema.String, use: Schema.Literal("notifications") })

/** A token opening the caller's notifications; Forbidden to a caller who is no person (a site reader). */
export const issueNotificationsToken: Effect.Effect<string, Errors.Forbidden, Actor.Actor> = Effect.gen(function*() {
  const actor = yield* Actor.Actor
  if (actor.siteReader !== undefined) return yield* new Errors.Forbidden({ reason: "A site reader has no notifications" })
  const key = yield* SignedToken.keyFor(purpose)
  return yield* SignedToken.issue(key, Claims, { sub: actor.userId, use: "notifications" }, { expiresIn: notificationsTokenSeconds, jwt: true })
})

/** The person a notifications token names, while it lasts; none for any other token. */
export const openNotificationsToken = (token: string): Effect.Effect<Option.Option<string>> =>
  token.split(".").length !== 3
    ? Effect.succeedNone
    : Effect.flatMap(SignedToken.keyFor(purpose), (key) =>
      Effect.map(SignedToken.open(key, Claims, token, { jwt: true }), Option.map((verified) => verified.value.sub)))
