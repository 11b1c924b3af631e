/**
 * The cookie that carries a browser's sign-in session (identity's `SignInSessions` makes and
 * opens the session; this module only names the cookie and sets its attributes).
 */
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { type SessionGrant, type SignInSession, SignInSessions } from "@quire/identity"

export const name = "quire_session"

/** The session the request's cookie carries, if it carries a current one. */
export const current: Effect.Effect<Option.Option<SignInSession>, never, HttpServerRequest.HttpServerRequest | SignInSessions> = Effect.gen(
  function*() {
    const token = (yield* HttpServerRequest.HttpServerRequest).cookies[name]
    if (token === undefined) return Option.none()
    return yield* (yield* SignInSessions).open(token)
  }
)

/** `response` with the cookie of a session just begun: HttpOnly, SameSite=Lax, Secure when the server is reached over https. */
export const set = (response: HttpServerResponse.HttpServerResponse, grant: SessionGrant, secure: boolean) =>
  HttpServerResponse.setCookie(
    response,
    name,
    grant.token,
    { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: `${grant.maxAgeSeconds} seconds` }
  ).pipe(Effect.orDie)
