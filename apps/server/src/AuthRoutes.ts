/**
 * The browser app's sign-in surface, `/auth/*` (private: not under `/v1`, not in the OpenAPI
 * document; docs/sign-in.md): the current session, first-run setup, sign-in and sign-out with a
 * password, the person's sessions, invitations (look one up, accept it with a new account or as
 * oneself), proving one's email (`/auth/verify-email`), a password change, and the CLI's password
 * sign-in (`/auth/cli/token`). JSON in and
 * out, errors in the API's envelope. Every unsafe request from a browser must come from our own
 * origin (SessionCookie.fromOwnOrigin); the session cookie is set
 * and cleared here. The logic is identity's (`PasswordSignIn`, `InviteSignUp`, `SignInSessions`).
 */
import { AuditOrigin } from "@quire/audit"
import { Context, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ClientInfo, EmailVerification, InviteSignUp, Organizations, PasswordSignIn, type SessionGrant, type SignInSession, SignInSessions } from "@quire/identity"
import { Actor, type Errors } from "@quire/kernel"
import { envelope } from "./ErrorEnvelope.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"
import * as SessionCookie from "./SessionCookie.ts"

const noStore = { "cache-control": "no-store" }

/** An error answer of this surface, never cached. */
const fail = (status: number, message: string, field?: string) => HttpServerResponse.setHeaders(envelope(status, message, field), noStore)

const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status, headers: noStore })

const noContent = HttpServerResponse.empty({ status: 204, headers: noStore })

/** What the surface's use cases fail with, as answers. */
type Refusal =
  | Errors.NotFound
  | Errors.Forbidden
  | Errors.InvalidInput
  | Errors.Conflict
  | { readonly _tag: "SignInFailed" | "SetupClosed"; readonly message: string }
  | { readonly _tag: "TooManyAttempts"; readonly message: string; readonly retryAfterSeconds: number }
  | { readonly _tag: "SsoRequired"; readonly message: string; readonly organizationId: string; readonly organizationTitle: string }

const statuses: Record<Refusal["_tag"], number> = {
  NotFound: 404,
  Forbidden: 403,
  InvalidInput: 400,
  Conflict: 409,
  SignInFailed: 401,
  SetupClosed: 403,
  TooManyAttempts: 429,
  SsoRequired: 403
}

const refusal = (error: Refusal) => {
  if (error._tag === "SsoRequired") {
    // The app offers the organization's single sign-on beside the message.
    const sso = { organizationId: error.organizationId, organizationTitle: error.organizationTitle }
    return json({ error: { code: 403, message: error.message, sso } }, 403)
  }
  const answer = fail(statuses[error._tag], error.message, error._tag === "InvalidInput" ? error.field : undefined)
  return error._tag === "TooManyAttempts"
    ? HttpServerResponse.setHeader(answer, "retry-after", String(error.retryAfterSeconds))
    : answer
}

/** The effect's answer, or its refusal's. */
const answer = <E extends Refusal, R>(self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catch(self, (error: E) => Effect.succeed(refusal(error)))

/** The request's JSON body as an object (none or `{}` when empty); undefined when it is not one. */
const bodyOf = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* Effect.orElseSucceed(request.text, () => "")
  if (text.trim() === "") return {} as Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
})

const notSignedIn = (setupNeeded: boolean) =>
  HttpServerResponse.jsonUnsafe({ error: { code: 401, message: "Not signed in" }, setupNeeded }, { status: 401, headers: noStore })

/**
 * `GET /auth/session`: the session's body, else 401. With `?probe=1`, the app's question at each
 * load, a visitor without a session is an answer, 200 `{"signedIn":false,"setupNeeded":…}`, not a
 * refusal the browser logs as an error.
 */
const currentSession = <E, R>(setupOpen: Effect.Effect<boolean>, body: (session: SignInSession) => Effect.Effect<unknown, E, R>) =>
  Effect.gen(function*() {
    const session = yield* SessionCookie.current
    if (Option.isSome(session)) return json(yield* body(session.value))
    const setupNeeded = yield* setupOpen
    const request = yield* HttpServerRequest.HttpServerRequest
    const probing = new URL(request.url, "http://quire.invalid").searchParams.get("probe") === "1"
    return probing ? json({ signedIn: false, setupNeeded }) : notSignedIn(setupNeeded)
  })

/** Whether the request sends a bearer token (which wins over the cookie, as AuthenticationLive reads it). */
const hasBearer = (request: HttpServerRequest.HttpServerRequest) => /^Bearer\s+\S/i.test(request.headers["authorization"] ?? "")

/**
 * A global middleware: a `/v1` request authenticated by the session cookie alone (no bearer
 * token) that would change something is refused 403 unless it comes from our own origin, before
 * any handler runs. Reads (GET, HEAD, OPTIONS) pass: another site cannot see their answers, as
 * no answer carries `Access-Control-Allow-Credentials`.
 */
const crossSiteGuard = HttpRouter.middleware(
  Effect.gen(function*() {
    const origin = new URL((yield* PublicUrl).base).origin
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (
          request.url.startsWith("/v1/") && !SessionCookie.isSafeMethod(request.method) && !hasBearer(request) &&
          request.cookies[SessionCookie.name] !== undefined && !SessionCookie.fromOwnOrigin(request, origin)
        ) {
          return Effect.succeed(fail(403, "Cross-origin requests cannot act with the session cookie"))
        }
        return httpEffect
      })
  }),
  { global: true }
)

/** The answer describing a signed-in session: its person and its expiry. */
const describeSession = (sessions: SignInSessions["Service"], verification: EmailVerification["Service"], organizations: Organizations["Service"]) =>
  Effect.fnUntraced(function*(session: SignInSession) {
    const user = yield* Effect.orDie(sessions.user(session))
    const actor = Actor.Actor.of({
      userId: user.id,
      instanceAdmin: session.organizationId === undefined && user.instanceAdmin,
      ...(session.organizationId === undefined ? {} : { scope: session.organizationId })
    })
    return {
      user: {
        id: user.id,
        displayName: user.displayName,
        email: user.email,
        ...(user.photoURL === null ? {} : { photoURL: user.photoURL }),
        instanceAdmin: session.organizationId === undefined && user.instanceAdmin,
        emailVerified: yield* verification.isVerified(user.id)
      },
      // Whether a confirmation link can be mailed (QUIRE_SMTP_URL): the app offers one only then.
      emailDelivery: verification.sendsMail,
      // Whether the app offers "New organization" (and, when not, why: the server's own refusal).
      organizationCreation: yield* organizations.mayCreate.pipe(Effect.provideService(Actor.Actor, actor)),
      session: {
        id: session.id,
        method: session.method,
        ...(session.organizationId === undefined ? {} : { organizationId: session.organizationId }),
        expiresAt: session.expiresAt.toISOString()
      },
      setupNeeded: false
    }
  })

const routes = HttpRouter.use(Effect.fn(function*(router) {
  const sessions = yield* SignInSessions
  const passwords = yield* PasswordSignIn
  const invites = yield* InviteSignUp
  const verification = yield* EmailVerification
  const urls = yield* PublicUrl
  const trustProxy = yield* Effect.orDie(TrustProxy)
  const origin = new URL(urls.base).origin
  const secure = new URL(urls.base).protocol === "https:"

  const clientOf = (request: HttpServerRequest.HttpServerRequest): ClientInfo => ({
    address: addressOf(request, trustProxy),
    userAgent: request.headers["user-agent"]
  })

  const sessionBody = describeSession(sessions, verification, yield* Organizations)

  /** The session body of a session just begun, with its cookie. */
  const signedIn = (grant: SessionGrant) =>
    Effect.flatMap(sessionBody(grant.session), (body) => SessionCookie.set(json(body), grant, secure))

  /**
   * Runs `handle` for an unsafe request from our own origin with its JSON body; anything else is
   * refused (403 from another origin, 400 for a body that is not a JSON object).
   */
  const unsafe = <E extends Refusal, R>(
    handle: (body: Record<string, unknown>, request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!SessionCookie.fromOwnOrigin(request, origin)) return fail(403, "Cross-origin requests cannot sign in or use a session")
      const body = yield* bodyOf
      if (body === undefined) return fail(400, "request body: must be a JSON object")
      // What these routes change (an invitation accepted, a password changed) is recorded as the app's, from this client.
      return yield* answer(handle(body, request)).pipe(
        Effect.provideService(AuditOrigin, { source: "ui", address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] })
      )
    })

  /** Runs `handle` with the request's session; 401 without one. */
  const withSession = <E, R>(handle: (session: SignInSession) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.flatMap(SessionCookie.current, Option.match({
      onNone: () => Effect.map(passwords.setupOpen, notSignedIn),
      onSome: handle
    }))

  yield* router.add("GET", "/auth/session", currentSession(passwords.setupOpen, sessionBody))

  yield* router.add("POST", "/auth/setup", unsafe((body, request) =>
    Effect.flatMap(
      passwords.setup({ setupCode: body["setupCode"], displayName: body["displayName"], email: body["email"], password: body["password"] }, clientOf(request)),
      signedIn
    )))

  yield* router.add("POST", "/auth/sign-in", unsafe((body, request) =>
    Effect.flatMap(passwords.signIn(body["email"], body["password"], clientOf(request)), signedIn)))

  yield* router.add("POST", "/auth/sign-out", unsafe(() =>
    Effect.gen(function*() {
      const current = yield* SessionCookie.current
      if (Option.isSome(current)) yield* Effect.ignore(sessions.revoke(current.value.userId, current.value.id))
      return yield* SessionCookie.clear(noContent, secure)
    })))

  // Every session of the person ends, this one included, and every API token a session of theirs
  // created (SignInSessions.revokeOthers): what a stolen cookie made ends with it.
  yield* router.add("POST", "/auth/sign-out-everywhere", unsafe(() =>
    withSession((current) =>
      Effect.andThen(sessions.revokeOthers(current.userId, undefined), SessionCookie.clear(noContent, secure)))))

  yield* router.add("GET", "/auth/sessions", withSession((current) =>
    Effect.map(sessions.list(current.userId), (rows) =>
      json({
        items: rows.map((row) => ({
          id: row.id,
          method: row.method,
          ...(row.organizationId === null ? {} : { organizationId: row.organizationId }),
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          userAgent: row.userAgent,
          current: row.id === current.id
        }))
      }))))

  yield* router.add("DELETE", "/auth/sessions/:sessionId", unsafe(() =>
    withSession((current) =>
      Effect.gen(function*() {
        const sessionId = (yield* HttpRouter.params).sessionId ?? ""
        yield* sessions.revoke(current.userId, sessionId)
        return sessionId === current.id ? yield* SessionCookie.clear(noContent, secure) : noContent
      }))))

  yield* router.add("GET", "/auth/invites/:token", answer(Effect.gen(function*() {
    const invite = yield* invites.find((yield* HttpRouter.params).token ?? "")
    return json({
      organization: { id: invite.organization.id, title: invite.organization.title },
      ...(invite.email === undefined ? {} : { email: invite.email }),
      role: invite.role,
      kind: invite.kind,
      // The invitation's mailed link: answering it also confirms the address.
      proof: invite.proof
    })
  })))

  yield* router.add("POST", "/auth/invites/:token/accept", unsafe((body, request) =>
    Effect.gen(function*() {
      const token = (yield* HttpRouter.params).token ?? ""
      const current = yield* SessionCookie.current
      if (Option.isSome(current)) {
        yield* invites.accept(token, current.value)
        return json(yield* sessionBody(current.value))
      }
      const grant = yield* invites.signUp(token, { displayName: body["displayName"], email: body["email"], password: body["password"] }, clientOf(request))
      return yield* signedIn(grant)
    })))

  // Proving one's email: a link to it (202 once mailed), and the link's confirmation.
  yield* router.add("POST", "/auth/verify-email", unsafe(() =>
    withSession((session) => Effect.map(verification.request(session.userId), (sent) => json({ email: sent.email }, 202)))))

  yield* router.add("POST", "/auth/verify-email/confirm", unsafe((body) =>
    Effect.map(verification.confirm(body["token"]), (proven) => json({ email: proven.email }))))

  yield* router.add("POST", "/auth/password", unsafe((body) =>
    withSession((session) =>
      Effect.as(passwords.changePassword(session, body["currentPassword"], body["newPassword"]), noContent))))

  // `quire login` with a password: the same sign-in (its limits, its one answer for an unknown
  // email or a wrong password), traded at once for an API token; the session it began ends here,
  // so the token is what stays. Not for browsers: a request a browser marks as another site's is refused.
  yield* router.add("POST", "/auth/cli/token", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const fromBrowser = request.headers["origin"] !== undefined || request.headers["sec-fetch-site"] !== undefined
    if (fromBrowser && !SessionCookie.fromOwnOrigin(request, origin)) return fail(403, "Cross-origin requests cannot sign in")
    const body = yield* bodyOf
    if (body === undefined) return fail(400, "request body: must be a JSON object")
    return yield* answer(Effect.gen(function*() {
      const grant = yield* passwords.signIn(body["email"], body["password"], clientOf(request))
      const created = yield* sessions.createToken(grant.session, "quire login")
      const person = yield* Effect.orDie(sessions.user(grant.session))
      yield* Effect.ignore(sessions.revoke(grant.session.userId, grant.session.id))
      return json({ token: created.secret, user: { id: person.id, email: person.email, displayName: person.displayName } }, 201)
    }))
  }))
}))

/** The `/auth/*` routes and the guard of cookie-authenticated `/v1` requests. */
export const layer = Layer.merge(routes, crossSiteGuard)
