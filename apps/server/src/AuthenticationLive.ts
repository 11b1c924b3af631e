/** Server side of the bearer-token middleware: the token's owner becomes the Actor. */
import { Effect, Layer, Option, Redacted } from "effect"
import { ApiErrors, Authentication } from "@quire/api"
import { Users } from "@quire/identity"
import { Actor } from "@quire/kernel"

export const layer = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const users = yield* Users
    return Authentication.of({
      bearer: Effect.fnUntraced(function*(httpEffect, { credential }) {
        const user = yield* users.authenticate(Redacted.value(credential))
        if (Option.isNone(user)) {
          return yield* ApiErrors.Unauthorized.of("A valid API token is required: send `Authorization: Bearer <token>`")
        }
        return yield* Effect.provideService(httpEffect, Actor.Actor, {
          userId: user.value.id,
          instanceAdmin: user.value.instanceAdmin
        })
      })
    })
  })
)
