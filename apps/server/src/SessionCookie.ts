/**
 * The cookie that carries a browser's sign-in session: `quire_session`, HttpOnly, SameSite=Lax,
 * Path=/, Secure when the server is reached over https (PublicUrl). Identity's `SignInSessions`
 * makes, opens and revokes the session; this module only names the cookie and sets its
 * attributes, and says whether a request that would act with it comes from our own origin.
 */
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { type SessionGrant, type SignInSession, SignInSessions } from "@quire/identity"

export const name = "quire_session"

/** The session the request's cookie carries, if it carries a live one. */
export const current: Effect.Effect<Option.Option<SignInSession>, never, HttpServerRequest.HttpServerRequest | SignInSessions> = Effect.gen(
  function*() {
    const token = (yield* HttpServerRequest.HttpServerRequest).cookies[name]
    if (token === undefined || token === "") return Option.none()
    return yield* (yield* SignInSessions).open(token)
  }
)

/** `response` with the cookie of a session just begun: HttpOnly, SameSite=Lax, Secure when the server is reached over https. */
export const set = (response: HttpServerResponse.HttpServerResponse, grant: Pick<SessionGrant, "token" | "maxAgeSeconds">, secure: boolean) =>
  HttpServerResponse.setCookie(
    response,
    name,
    grant.token,
    { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: `${grant.maxAgeSeconds} seconds` }
  ).pipe(Effect.orDie)

/** `response` clearing the cookie (same attributes, expired). */
export const clear = (response: HttpServerResponse.HttpServerResponse, secure: boolean) =>
  HttpServerResponse.setCookie(
    response,
    name,
    "",
    { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: "0 seconds", expires: new Date(0) }
  ).pipe(Effect.orDie)

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** Whether the request's method only reads (a cross-site read cannot see the answer: no CORS credentials). */
export const isSafeMethod = (method: string) => safeMethods.has(method.toUpperCase())

/**
 * Whether a request comes from a page of our own origin, as the browser says: its `Origin` is
 * ours, or, without one, `Sec-Fetch-Site: same-origin`. A cross-site form post or fetch carries
 * another `Origin` (or `null`), so it never passes; nor does a request that says nothing.
 */
export const fromOwnOrigin = (request: HttpServerRequest.HttpServerRequest, origin: string): boolean => {
  const from = request.headers["origin"]
  if (from !== undefined) return from === origin
  return request.headers["sec-fetch-site"] === "same-origin"
}
