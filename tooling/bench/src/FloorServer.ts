/**
 * Child process: the framework's floor. Effect's HTTP API server (`effect/http-api` on
 * `@effect/platform-node`, the stack Quire is built on) with nothing of Quire's around it: the two
 * measured operations as `@quire/api` declares them (their schemas, the bearer `Authentication`
 * middleware), the baseline's two queries through `@effect/sql-pg`, its presenters, no router
 * middlewares (security headers, rate limits, metrics, request ids), no caches. What Quire's own
 * request path costs is Quire's CPU per request less this one's; what the framework costs, this
 * one's less the node:http baseline's.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { Api, ApiErrors, Authentication } from "@quire/api"
import { SqlRows } from "@quire/identity"
import { Actor } from "@quire/kernel"
import * as Presenters from "@quire/server/Presenters"
import { PublicUrl } from "@quire/server/PublicUrl"
import * as Profiling from "./Profiling.ts"
import * as Target from "./Target.ts"

const { organizationColumns, toOrganization, toRole, toUser, userColumns } = SqlRows

Profiling.listen()
const config = Target.read()
const urls = PublicUrl.make(`http://127.0.0.1:${config.port}`)

const group = HttpApiGroup.make("floor")
  .add(Api.groups.organizations.endpoints.getOrganizationById)
  .add(Api.groups.users.endpoints.getAuthenticatedUser)
const api = HttpApi.make("floor").add(group)

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex")

const one = <A>(rows: ReadonlyArray<Record<string, unknown>>, f: (row: Record<string, unknown>) => A) =>
  rows[0] === undefined ? Option.none() : Option.some(f(rows[0]))

const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Authentication.of({
      bearer: Effect.fnUntraced(function*(httpEffect, { credential }) {
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT ${userColumns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id WHERE t.token_hash = $1`,
          [hash(Redacted.value(credential))]
        ).pipe(Effect.orDie)
        const user = one(rows, toUser)
        if (Option.isNone(user)) return yield* ApiErrors.Unauthorized.of("A valid API token is required: send `Authorization: Bearer <token>`")
        return yield* Effect.provideService(httpEffect, Actor.Actor, { userId: user.value.id, instanceAdmin: user.value.instanceAdmin })
      })
    })
  })
)

const handlers = HttpApiBuilder.group(api, "floor", Effect.fn(function*(h) {
  const sql = yield* SqlClient.SqlClient
  return h
    .handle("getOrganizationById", ({ params }) =>
      Effect.gen(function*() {
        const actor = yield* Actor.Actor
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT ${organizationColumns}, m.role AS member_role FROM identity_organizations o
            JOIN identity_members m ON m.organization_id = o.id AND m.user_id = $1 WHERE o.id = $2`,
          [actor.userId, params.organizationId]
        ).pipe(Effect.orDie)
        const access = one(rows, (row) => ({ organization: toOrganization(row), membership: { role: toRole(row.member_role) } }))
        if (Option.isNone(access)) return yield* ApiErrors.NotFound.of("Organization not found")
        return Presenters.organization(urls, access.value)
      }))
    .handle("getAuthenticatedUser", () =>
      Effect.gen(function*() {
        const actor = yield* Actor.Actor
        const rows = yield* sql.unsafe<Record<string, unknown>>(`SELECT ${userColumns} FROM identity_users u WHERE u.id = $1`, [actor.userId])
          .pipe(Effect.orDie)
        const user = one(rows, toUser)
        if (Option.isNone(user)) return yield* ApiErrors.NotFound.of("User not found")
        return Presenters.user(urls, user.value)
      }))
}))

if (config.backend.kind !== "postgres") throw new Error("the floor server runs on PostgreSQL only")

const main = HttpRouter.serve(HttpApiBuilder.layer(api), { disableLogger: true }).pipe(
  Layer.provide(handlers),
  Layer.provide(AuthenticationLive),
  Layer.provide(PgClient.layer({ url: Redacted.make(config.backend.url), maxConnections: 10 })),
  Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: "127.0.0.1" }))
)

NodeRuntime.runMain(Layer.launch(main))
