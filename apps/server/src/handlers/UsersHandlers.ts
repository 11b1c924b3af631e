/** Handlers of the users group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "users", Effect.fn(function*(handlers) {
  const users = yield* Users
  const urls = yield* PublicUrl
  const present = Effect.fnUntraced(function*(user: Parameters<typeof Presenters.user>[1]) {
    const actor = yield* Actor.Actor
    return Presenters.user(urls, user, { showEmail: actor.userId === user.id || actor.instanceAdmin })
  })
  return handlers
    .handle("getAuthenticatedUser", () => users.current.pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("getUserById", ({ params }) => users.get(params.userId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("updateUserById", ({ params, payload }) =>
      users.update(params.userId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("createUser", ({ payload }) =>
      users.create(payload).pipe(DomainErrors.api, Effect.map((user) => Presenters.user(urls, user))))
    .handle("createUserToken", ({ params, payload }) =>
      users.createToken(params.userId, payload.label).pipe(
        DomainErrors.api,
        Effect.map(({ secret, token }) => ({
          object: "api-token" as const,
          id: token.id,
          ...(token.label === null ? {} : { label: token.label }),
          token: secret,
          createdAt: token.createdAt.toISOString()
        }))
      ))
}))
