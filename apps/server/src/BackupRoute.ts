/**
 * `POST /admin/backup`: the embedded database's cluster as a gzipped tarball, taken while the
 * server runs (`DatabaseInfo.snapshot`), for `quire db backup`. Only an instance administrator's
 * API token (no session cookie, no token scoped to an organization) gets it: it holds everything.
 * On PostgreSQL it answers 409, naming the commands that back that up.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AuditLog, AuditOrigin, userRef } from "@quire/audit"
import { Database } from "@quire/db"
import { Users } from "@quire/identity"
import { envelope } from "./ErrorEnvelope.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"

export const backupPath = "/admin/backup"

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const users = yield* Users
  const audit = yield* AuditLog
  const trustProxy = yield* Effect.orDie(TrustProxy)
  const database = yield* Effect.serviceOption(Database.DatabaseInfo)
  yield* router.add("POST", backupPath, Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization?.trim() ?? "")?.[1]
    const caller = token === undefined ? Option.none() : yield* users.caller(token)
    if (Option.isNone(caller)) {
      return HttpServerResponse.setHeader(
        envelope(401, "A backup needs an instance administrator's API token: Authorization: Bearer <token>"),
        "www-authenticate",
        "Bearer"
      )
    }
    const { actor } = caller.value
    if (!actor.instanceAdmin || actor.scope !== undefined) {
      return envelope(403, "Only an instance administrator's API token can take a backup")
    }
    const snapshot = Option.flatMap(database, (info) => Option.fromNullishOr(info.snapshot))
    if (Option.isNone(snapshot)) {
      return envelope(409, "This server runs on PostgreSQL: back it up with `quire db dump` (or pg_dump), which read it while it runs")
    }
    const bytes = yield* Effect.promise(snapshot.value)
    yield* audit.record({ organizationId: null, action: "backup.created", actor: userRef(actor.userId), target: { type: "instance", id: "instance" }, payload: { bytes: bytes.byteLength } }).pipe(
      Effect.provideService(AuditOrigin, { source: "api", address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] })
    )
    yield* Effect.logInfo(`Backup of the embedded database taken (${bytes.byteLength} bytes)`)
    return HttpServerResponse.uint8Array(bytes, {
      contentType: "application/gzip",
      headers: { "cache-control": "no-store" }
    })
  }))
}))
