/**
 * Single sign-on routes (outside `/v1`; the design is in docs/sso.md): a SAML provider's
 * `start` (redirect to the IdP), `acs` (the IdP's POST), `metadata.xml`; an OpenID Connect
 * provider's `start` and the one OIDC `callback`; `/sso/logins`, where the sign-in screen finds an
 * organization's providers by its id or an email's domain; the session they start
 * (a cookie, see SessionCookie) is accepted only by the "signed in" page and its token creation;
 * the CLI exchanges a one-time code, bound to its loopback request by PKCE, for a token. The
 * routes parse requests and write answers: where the browser goes, the session a sign-in begins
 * (stored, like a password's: docs/sign-in.md) and the CLI's code are identity's `SamlSessions`
 * and `SignInSessions`, the SAML exchange its `SamlSignIn`.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { AuditOrigin } from "@quire/audit"
import { escapeHtml } from "@quire/kernel"
import { OidcSignIn, type SamlCompleted, SamlSessions, SamlSignIn, type ServiceProvider, SignInSessions, SsoDirectory, type SsoLogins } from "@quire/identity"
import { randomBytes } from "node:crypto"
import { envelope } from "./ErrorEnvelope.ts"
import { oidcServiceUrls, samlServiceUrls } from "./Presenters.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { addressOf, TrustProxy } from "./RateLimits.ts"
import * as SessionCookie from "./SessionCookie.ts"

const page = (status: number, title: string, body: string) =>
  HttpServerResponse.html(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  ).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders({
      "cache-control": "no-store",
      // Our own policy (SecurityHeaders keeps it outside /v1): the signed-in page's form posts to us.
      "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    })
  )

/** The page that hands the CLI's code to its loopback listener in a POST body: never in a URL. */
const cliHandoffPage = (callback: URL, code: string) => {
  const nonce = randomBytes(16).toString("base64")
  return HttpServerResponse.html(
    `<!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head><body><h1>Signed in</h1>` +
      `<form method="post" action="${escapeHtml(callback.href)}"><input type="hidden" name="code" value="${escapeHtml(code)}">` +
      `<p>Return to quire in your terminal: <button>Continue</button></p></form>` +
      `<script nonce="${nonce}">document.forms[0].submit()</script></body></html>`
  ).pipe(
    HttpServerResponse.setHeaders({
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${callback.origin}; frame-ancestors 'none'; base-uri 'none'`
    })
  )
}

/** The cookie that ties an OIDC sign-in's callback to the browser that began it (its `state`). */
const stateCookie = "quire_oidc_state"

/**
 * The cookie that ties a SAML sign-in's ACS post to the browser that began it: the id of its
 * AuthnRequest, which the response must answer (InResponseTo). The IdP posts from its own site, so
 * over https the cookie is SameSite=None (with Secure) to come along; over plain http (a local
 * installation, the tests) a browser takes SameSite=None only with Secure, so it is Lax there and
 * the IdP must be on the same site.
 */
const samlRequestCookie = "quire_saml_request"

/** An organization's ways to sign in, as answered: SAML's active providers, then OIDC's. */
const loginItems = (urls: PublicUrl["Service"], logins: SsoLogins) => [
  ...logins.saml.map((p) => ({ id: p.id, label: p.label, protocol: "saml" as const, startURL: samlServiceUrls(urls, p).startURL })),
  ...logins.oidc.map((p) => ({ id: p.id, label: p.label, protocol: "oidc" as const, startURL: oidcServiceUrls(urls, p).startURL }))
]

/** The organization's ways to sign in (none when it has no provider). */
export const logins = Effect.fnUntraced(function*(organizationId: string) {
  const urls = yield* PublicUrl
  const found = yield* (yield* SsoDirectory).forOrganization(organizationId)
  return Option.match(found, { onNone: () => [], onSome: (l) => loginItems(urls, l) })
})

/** The organization and provider a route names. */
const providerParams = Effect.map(HttpRouter.params, (p) => ({ organizationId: p.organizationId ?? "", providerId: p.providerId ?? "" }))

/**
 * Where `quire login --sso ORG` sends the browser: the organization's first provider (SAML's
 * active ones, then OIDC's), so that the CLI needs no token to find it. RelayState is passed on.
 */
const organizationStart = Effect.gen(function*() {
  const { organizationId } = yield* providerParams
  const request = yield* HttpServerRequest.HttpServerRequest
  const first = (yield* logins(organizationId))[0]
  if (first === undefined) return page(404, "Unknown sign-in", "<p>This organization has no single sign-on provider.</p>")
  const start = new URL(first.startURL)
  start.search = new URL(request.url, "http://x").search
  return HttpServerResponse.redirect(start.href, { status: 302, headers: { "cache-control": "no-store" } })
})

/**
 * The sign-in screen's lookup, before anyone is signed in: `?org=ID` (a link an admin hands
 * out) or `?email=ADDRESS` (the organizations claiming its domain). JSON, never cached.
 */
const loginsLookup = (directory: SsoDirectory["Service"], urls: PublicUrl["Service"]) => Effect.gen(function*() {
  const query = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://x").searchParams
  const org = query.get("org")
  const email = query.get("email")
  if ((org === null || org === "") && (email === null || email === "")) return envelope(400, "org or email: one of them is required", "org")
  const found = org !== null && org !== ""
    ? Option.toArray(yield* directory.forOrganization(org))
    : yield* directory.forEmail(email ?? "")
  return HttpServerResponse.jsonUnsafe({
    items: found.map((l) => ({ organization: { id: l.organization.id, title: l.organization.title }, providers: loginItems(urls, l) }))
  }, { headers: { "cache-control": "no-store" } })
})

/** A SAML provider's service-provider metadata; 404 in the API's envelope for an unknown provider. */
const samlMetadata = (signIn: SamlSignIn["Service"], sp: (organizationId: string, providerId: string) => ServiceProvider) => Effect.gen(function*() {
  const { organizationId, providerId } = yield* providerParams
  return yield* signIn.metadata(organizationId, providerId, sp(organizationId, providerId)).pipe(
    Effect.map((xml) => HttpServerResponse.text(xml, { contentType: "application/samlmetadata+xml" })),
    Effect.catchTag("NotFound", () => Effect.succeed(envelope(404, `SAML provider ${JSON.stringify(providerId)} not found`)))
  )
})

/**
 * `quire login --sso`: the CLI trades the one-time code its loopback listener received, and the
 * PKCE verifier only it knows, for a token of the organization it signed in to.
 */
const cliToken = (sessions: SignInSessions["Service"]) => Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const body = yield* Effect.orElseSucceed(request.json, () => ({}))
  const text = (name: string) => {
    const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined
    return typeof value === "string" ? value : ""
  }
  return yield* sessions.redeemCliCode(text("code"), text("code_verifier")).pipe(
    Effect.map(({ organizationId, secret, user }) =>
      HttpServerResponse.jsonUnsafe(
        { token: secret, user: { id: user.id, email: user.email }, organization: organizationId },
        { headers: { "cache-control": "no-store" } }
      )),
    Effect.catchTag("SignInRefused", (refused) => Effect.succeed(envelope(400, refused.reason)))
  )
})

/** Where a sign-in started at a provider goes back to, and the CLI's PKCE challenge: the start URL's query. */
const startRequestOf = (request: HttpServerRequest.HttpServerRequest) => {
  const query = new URL(request.url, "http://x").searchParams
  return {
    relayState: query.get("RelayState") ?? undefined,
    challenge: query.get("code_challenge") ?? undefined,
    challengeMethod: query.get("code_challenge_method") ?? undefined
  }
}

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const signIn = yield* SamlSignIn
  const samlSessions = yield* SamlSessions
  const sessions = yield* SignInSessions
  const oidc = yield* OidcSignIn
  const directory = yield* SsoDirectory
  const urls = yield* PublicUrl
  const origin = new URL(urls.base).origin
  const secure = new URL(urls.base).protocol === "https:"
  const places = { base: urls.base, signedInPage: urls.app("/sso/signed-in") }
  const trustProxy = yield* Effect.orDie(TrustProxy)

  /** A sign-in completed here is audited as the browser's, from its address and user agent. */
  const fromBrowser = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.provideService(AuditOrigin, { source: "ui", address: addressOf(request, trustProxy), userAgent: request.headers["user-agent"] })

  /**
   * The answer to a completed sign-in, with its session cookie: the CLI's code goes to its
   * listener in a form's body, bound to the challenge it started with; a browser is redirected.
   */
  const signedIn = ({ grant, next }: SamlCompleted) =>
    SessionCookie.set(
      next._tag === "Cli"
        ? cliHandoffPage(next.handoff.callback, next.handoff.code)
        : HttpServerResponse.redirect(next.url.href, { status: 303, headers: { "cache-control": "no-store" } }),
      grant,
      secure
    )

  const sp = (organizationId: string, providerId: string): ServiceProvider => samlServiceUrls(urls, { organizationId, id: providerId })

  const samlCookieOptions = { httpOnly: true, secure, sameSite: secure ? "none" as const : "lax" as const, path: "/sso/saml" }

  yield* router.add("GET", "/sso/saml/:organizationId/:providerId/start", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    const startRequest = startRequestOf(yield* HttpServerRequest.HttpServerRequest)
    return yield* samlSessions.start(organizationId, providerId, sp(organizationId, providerId), startRequest, places).pipe(
      Effect.flatMap(({ location, requestId }) =>
        HttpServerResponse.setCookie(
          HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store" } }),
          samlRequestCookie,
          requestId,
          { ...samlCookieOptions, maxAge: "600 seconds" }
        ).pipe(Effect.orDie)),
      Effect.catchTags({
        SignInRefused: (refused) => Effect.succeed(page(400, "Sign-in refused", `<p>${escapeHtml(refused.reason)}</p>`)),
        NotFound: () => Effect.succeed(page(404, "Unknown sign-in", "<p>This organization has no active SAML provider with this id.</p>"))
      })
    )
  }))

  yield* router.add("GET", "/sso/orgs/:organizationId/start", organizationStart)

  yield* router.add("GET", "/sso/logins", loginsLookup(directory, urls))

  // OpenID Connect: start at the provider (PKCE, state, nonce), the state also in a cookie of this
  // browser; the one callback (the redirect URL to register at every provider) checks them all.
  const oidcRedirect = oidcServiceUrls(urls, { organizationId: "", id: "" }).redirectURL
  yield* router.add("GET", "/sso/oidc/:organizationId/:providerId/start", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    const startRequest = startRequestOf(yield* HttpServerRequest.HttpServerRequest)
    return yield* oidc.start(organizationId, providerId, oidcRedirect, startRequest, places).pipe(
      Effect.flatMap(({ location, state }) =>
        HttpServerResponse.setCookie(
          HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store" } }),
          stateCookie,
          state,
          { httpOnly: true, secure, sameSite: "lax", path: "/sso/oidc", maxAge: "600 seconds" }
        ).pipe(Effect.orDie)),
      Effect.catchTags({
        SignInRefused: (refused) => Effect.succeed(page(400, "Sign-in refused", `<p>${escapeHtml(refused.reason)}</p>`)),
        NotFound: () => Effect.succeed(page(404, "Unknown sign-in", "<p>This organization has no OpenID Connect provider with this id.</p>"))
      })
    )
  }))

  yield* router.add("GET", "/sso/oidc/callback", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const callback = {
      query: new URL(request.url, "http://x").searchParams,
      stateCookie: request.cookies[stateCookie],
      userAgent: request.headers["user-agent"]
    }
    const answer = yield* oidc.complete(oidcRedirect, callback, places).pipe(
      fromBrowser(request),
      Effect.flatMap(signedIn),
      Effect.catchTag("SignInRefused", (error) => Effect.succeed(page(400, "Sign-in refused", `<p>${escapeHtml(error.message)}</p>`)))
    )
    // The state is used up either way.
    return yield* HttpServerResponse.setCookie(answer, stateCookie, "", { httpOnly: true, secure, sameSite: "lax", path: "/sso/oidc", maxAge: "0 seconds" }).pipe(Effect.orDie)
  }))

  yield* router.add("GET", "/sso/saml/:organizationId/:providerId/metadata.xml", samlMetadata(signIn, sp))

  yield* router.add("POST", "/sso/saml/:organizationId/:providerId/acs", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
    const field = (name: string) => {
      const value = form.params.find(([k]) => k === name)?.[1]
      return typeof value === "string" ? value : undefined
    }
    const samlResponse = field("SAMLResponse")
    if (samlResponse === undefined) return page(400, "Sign-in refused", "<p>The request carries no SAMLResponse.</p>")
    const response = { samlResponse, relayState: field("RelayState"), requestId: request.cookies[samlRequestCookie], userAgent: request.headers["user-agent"] }
    const answer = yield* samlSessions.complete(organizationId, providerId, sp(organizationId, providerId), response, places).pipe(
      fromBrowser(request),
      Effect.flatMap(signedIn),
      Effect.catchTags({
        SamlRejected: (error) => Effect.succeed(page(400, "Sign-in refused", `<p>${escapeHtml(error.message)}</p>`)),
        NotFound: () => Effect.succeed(page(404, "Unknown sign-in", "<p>This organization has no active SAML provider with this id.</p>"))
      })
    )
    // The request is answered either way.
    return response.requestId === undefined
      ? answer
      : yield* HttpServerResponse.setCookie(answer, samlRequestCookie, "", { ...samlCookieOptions, maxAge: "0 seconds" }).pipe(Effect.orDie)
  }))

  yield* router.add("GET", "/sso/signed-in", Effect.gen(function*() {
    const current = yield* SessionCookie.current
    if (Option.isNone(current)) return page(401, "Not signed in", "<p>Sign in with your organization's single sign-on first.</p>")
    const user = yield* Effect.option(sessions.user(current.value))
    const email = Option.match(user, { onNone: () => "", onSome: (u) => u.email })
    return page(200, "Signed in", `<p>Signed in as ${escapeHtml(email)}.</p><form method="post" action="/sso/session/tokens"><button>Create an API token</button></form>`)
  }))

  // A token of the session, for the signed-in page. SameSite=Lax keeps the cookie off cross-site
  // POSTs, and the Origin check refuses what a browser sends from another origin anyway.
  yield* router.add("POST", "/sso/session/tokens", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const current = yield* SessionCookie.current
    if (Option.isNone(current)) return envelope(401, "A single sign-on session is required")
    if (!SessionCookie.fromOwnOrigin(request, origin)) return envelope(403, "Cross-origin requests cannot use the session")
    const created = yield* Effect.orDie(sessions.createToken(current.value, "single sign-on"))
    const wantsJson = (request.headers["accept"] ?? "").includes("application/json")
    return wantsJson
      ? HttpServerResponse.jsonUnsafe({ id: created.token.id, token: created.secret }, { status: 201, headers: { "cache-control": "no-store" } })
      : page(201, "API token created", `<p>Copy it now: it is not shown again.</p><pre>${escapeHtml(created.secret)}</pre>`)
  }))

  yield* router.add("POST", "/sso/cli/token", cliToken(sessions))
}))
