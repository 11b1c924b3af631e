/**
 * Instance administrators, outside `/v1` (GitBook's API has no such operation), for `quire
 * admins` (after first-run setup, instance administration is granted only
 * by an instance administrator):
 *
 * - `GET /admin/users?instanceAdmin=true`: the instance administrators (id, displayName, email);
 * - `PUT /admin/users/{userId}/instance-admin` `{"instanceAdmin": true|false}`: grants or
 *   withdraws it (409 for the last one, 404 for a user that does not exist);
 * - `GET /admin/audit-events`, `GET /admin/audit-events/{id}` and `GET /admin/audit-event-actions`: the instance's audit log, every
 *   organization's events and the instance's own (sign-ins, instance administration), with the
 *   filters and pages of `listOrganizationAuditEvents`; a page's events carry their `organizationId`
 *   and the page `names`, the current name of each person, team, space, collection, site and
 *   organization they refer to (`type:id` to name; AuditNames).
 *
 * The caller is an instance administrator, by an API token (a token scoped to an organization is
 * refused) or the browser app's session; a change made with the session cookie alone must come
 * from our own origin (as on `/auth/*`). The rule itself is identity's (`Users.setInstanceAdmin`).
 */
import { Effect, Option, Result, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Schemas } from "@quire/api"
import { AuditLog, AuditNames, AuditOrigin, referencesOf } from "@quire/audit"
import { Actor, type Errors } from "@quire/kernel"
import { sessionActor, Users } from "@quire/identity"
import * as AuditPresenters from "./AuditPresenters.ts"
import { envelope } from "./ErrorEnvelope.ts"
import * as Presenters from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"
import * as SessionCookie from "./SessionCookie.ts"

export const adminUsersPath = "/admin/users"

const noStore = { "cache-control": "no-store" }

const fail = (status: number, message: string, field?: string) => HttpServerResponse.setHeaders(envelope(status, message, field), noStore)

const json = (body: unknown) => HttpServerResponse.jsonUnsafe(body, { headers: noStore })

const statuses = { NotFound: 404, Forbidden: 403, Conflict: 409, InvalidInput: 400 } as const

const isDateTime = Schema.is(Schemas.DateTime)

/** The instance log's filters from the query string, or the 400 naming the bad one. */
const auditQuery = (query: URLSearchParams) => {
  const text = (name: string) => query.get(name) ?? undefined
  const limit = query.get("limit")
  if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)) {
    return Result.fail(fail(400, "limit: must be a whole number from 1 to 100", "limit"))
  }
  for (const name of ["from", "to"]) {
    const value = query.get(name)
    if (value !== null && !isDateTime(value)) return Result.fail(fail(400, `${name}: must be a date-time such as 2026-01-31T12:00:00Z`, name))
  }
  const from = text("from")
  const to = text("to")
  return Result.succeed({
    filter: {
      from: from === undefined ? undefined : new Date(from),
      to: to === undefined ? undefined : new Date(to),
      action: text("action"),
      actor: text("actor"),
      target: text("target")
    },
    page: { page: text("page"), limit: limit === null ? 20 : Number(limit) }
  })
}

const person = (user: { readonly id: string; readonly displayName: string; readonly email: string }) => ({
  id: user.id,
  displayName: user.displayName,
  email: user.email
})

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const users = yield* Users
  const audit = yield* AuditLog
  const auditNames = yield* AuditNames
  const urls = yield* PublicUrl
  const origin = new URL(urls.base).origin
  const trustProxy = yield* Effect.orDie(TrustProxy)

  /**
   * The caller, an instance administrator acting for the whole instance, or the answer that
   * refuses it: 401 without a valid token or session, 403 for anyone else (a token or session
   * scoped to an organization included, and a cookie-only change from another site).
   */
  const administrator = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = /^Bearer\s+(\S.*)$/i.exec(request.headers.authorization?.trim() ?? "")?.[1]
    if (token === undefined && request.cookies[SessionCookie.name] !== undefined && !SessionCookie.isSafeMethod(request.method) && !SessionCookie.fromOwnOrigin(request, origin)) {
      return Result.fail(fail(403, "Cross-origin requests cannot act with the session cookie"))
    }
    const actor: Option.Option<Actor.ActorShape> = token !== undefined
      ? Option.map(yield* users.caller(token), (caller) => caller.actor)
      : Option.map(yield* SessionCookie.current, sessionActor)
    if (Option.isNone(actor)) {
      return Result.fail(HttpServerResponse.setHeader(
        fail(401, "An instance administrator's API token (Authorization: Bearer <token>) or session is required"),
        "www-authenticate",
        "Bearer"
      ))
    }
    if (!actor.value.instanceAdmin || actor.value.scope !== undefined) {
      return Result.fail(fail(403, "Only an instance administrator can manage instance administrators"))
    }
    return Result.succeed(actor.value)
  })

  /** `handle`'s answer, run as the caller when an instance administrator; the refusal otherwise, and its errors as answers. */
  const asAdministrator = <E extends Errors.NotFound | Errors.Forbidden | Errors.Conflict | Errors.InvalidInput, R>(
    handle: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function*() {
      const caller = yield* administrator
      if (Result.isFailure(caller)) return caller.failure
      const request = yield* HttpServerRequest.HttpServerRequest
      const viaToken = request.headers.authorization !== undefined
      return yield* handle.pipe(
        Effect.provideService(Actor.Actor, caller.success),
        Effect.provideService(AuditOrigin, { source: viaToken ? "api" : "ui", address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] }),
        Effect.catch((error: E) => Effect.succeed(fail(statuses[error._tag], error.message, error._tag === "InvalidInput" ? error.field : undefined)))
      )
    })

  yield* router.add("GET", adminUsersPath, asAdministrator(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const filter = new URL(request.url, "http://quire.invalid").searchParams.get("instanceAdmin")
    if (filter !== "true") {
      return fail(400, "instanceAdmin: query parameter must be true (only the instance administrators are listed)", "instanceAdmin")
    }
    const admins = yield* users.listInstanceAdmins
    return json({ items: admins.map(person) })
  })))

  yield* router.add("PUT", `${adminUsersPath}/:userId/instance-admin`, asAdministrator(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const userId = (yield* HttpRouter.params).userId ?? ""
    const text = yield* Effect.orElseSucceed(request.text, () => "")
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return fail(400, "request body: must be a JSON object: {\"instanceAdmin\": true|false}")
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return fail(400, "request body: must be a JSON object: {\"instanceAdmin\": true|false}")
    }
    const unknown = Object.keys(body).find((key) => key !== "instanceAdmin")
    if (unknown !== undefined) return fail(400, `${unknown}: unknown field`, unknown)
    const instanceAdmin = (body as Record<string, unknown>)["instanceAdmin"]
    if (typeof instanceAdmin !== "boolean") return fail(400, "instanceAdmin: required: true or false", "instanceAdmin")
    const user = yield* users.setInstanceAdmin(userId, instanceAdmin)
    yield* Effect.logInfo(`Instance administration ${instanceAdmin ? "granted to" : "withdrawn from"} user ${user.id}`)
    return json({ ...person(user), instanceAdmin: user.instanceAdmin })
  })))

  const presentEvent = AuditPresenters.event(urls)

  yield* router.add("GET", "/admin/audit-events", asAdministrator(Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = auditQuery(new URL(request.url, "http://quire.invalid").searchParams)
    if (Result.isFailure(query)) return query.failure
    const page = yield* audit.list(query.success.filter, query.success.page)
    // Each event's organization, and the names of what the page's events refer to as they are now
    // (`type:id`; a thing gone since is left out, and the app shows the label the event kept or its id).
    const names = yield* auditNames.names(page.items.flatMap(referencesOf))
    return json({
      ...Presenters.list(page, (event) => ({ ...presentEvent(event), organizationId: event.organizationId })),
      names: Object.fromEntries(names)
    })
  })))

  yield* router.add("GET", "/admin/audit-event-actions", asAdministrator(Effect.succeed(
    json({ items: audit.actions.map((action) => ({ object: "audit-event-action", ...action })) })
  )))

  yield* router.add("GET", "/admin/audit-events/:auditEventId", asAdministrator(Effect.gen(function*() {
    const event = yield* audit.get(undefined, (yield* HttpRouter.params).auditEventId ?? "")
    return json({ ...presentEvent(event), organizationId: event.organizationId, schemaVersion: 1, payload: event.payload })
  })))
}))
