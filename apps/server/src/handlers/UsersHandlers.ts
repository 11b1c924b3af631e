/** Handlers of the users group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type ApiToken, MemberInvites, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "users", Effect.fn(function*(handlers) {
  const users = yield* Users
  const invites = yield* MemberInvites
  const urls = yield* PublicUrl
  const present = Effect.fnUntraced(function*(user: Parameters<typeof Presenters.user>[1]) {
    const actor = yield* Actor.Actor
    return Presenters.user(urls, user, { showEmail: actor.userId === user.id || actor.instanceAdmin })
  })
  return handlers
    .handle("getAuthenticatedUser", () => users.current.pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("listInvitesForAuthenticatedUser", () =>
      Effect.map(invites.listForCaller, (items) => Presenters.list({ items }, Presenters.memberInvite)))
    .handle("getUserById", ({ params }) => users.get(params.userId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("updateUserById", ({ params, payload }) =>
      users.update(params.userId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("createUser", ({ payload }) =>
      users.create(payload).pipe(DomainErrors.api, Effect.map((user) => Presenters.user(urls, user))))
    .handle("createUserToken", ({ params, payload }) =>
      users.createToken(params.userId, {
        label: payload.label,
        expiresAt: payload.expiresAt === undefined ? undefined : new Date(payload.expiresAt)
      }).pipe(
        DomainErrors.api,
        Effect.map(({ secret, token }) => ({ ...presentToken(token), token: secret }))
      ))
    .handle("listUserTokens", ({ params, query }) =>
      users.listTokens(params.userId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, presentToken))
      ))
    .handle("deleteUserTokenById", ({ params }) => users.revokeToken(params.userId, params.tokenId).pipe(DomainErrors.api))
}))

/** A token as the API shows it: never its secret (nor its hash). */
const presentToken = (token: ApiToken) => ({
  object: "api-token" as const,
  id: token.id,
  ...(token.label === null ? {} : { label: token.label }),
  createdAt: token.createdAt.toISOString(),
  ...(token.lastUsedAt === null ? {} : { lastUsedAt: token.lastUsedAt.toISOString() }),
  ...(token.expiresAt === null ? {} : { expiresAt: token.expiresAt.toISOString() }),
  ...(token.organizationId === null ? {} : { organization: token.organizationId })
})
