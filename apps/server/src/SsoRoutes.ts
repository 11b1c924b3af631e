/**
 * SAML sign-in routes (outside `/v1`; the design is in docs/sso.md): a provider's
 * `start` (redirect to the IdP), `acs` (the IdP's POST), `metadata.xml`; the session they start
 * (a signed cookie) is accepted only by the "signed in" page and its token creation; the CLI
 * exchanges a one-time code, bound to its loopback request by PKCE, for a token. Sessions and
 * tokens obtained here reach the provider's organization only.
 */
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { SamlProviders, SamlSignIn, type ServiceProvider, Users } from "@quire/identity"
import { Actor, SignedToken } from "@quire/kernel"
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { envelope } from "./ErrorEnvelope.ts"
import { PublicUrl } from "./PublicUrl.ts"

export const sessionCookie = "quire_session"
const sessionSeconds = 8 * 3600
const codeSeconds = 120
/** How long the IdP round trip of a CLI sign-in may take. */
const cliRelaySeconds = 10 * 60
/** RFC 7636's code_challenge for S256: base64url of a SHA-256, 43 characters. */
const challengePattern = /^[A-Za-z0-9_-]{43}$/
/** RFC 7636's code_verifier: 43 to 128 unreserved characters. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/

/** The SP side of a provider: its entity id, ACS, start and metadata URLs. */
export const serviceUrls = (urls: PublicUrl["Service"], organizationId: string, providerId: string) => {
  const base = urls.app(`/sso/saml/${organizationId}/${providerId}`)
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start`, metadataURL: `${base}/metadata.xml` }
}

/*
 * Sign-in's tokens are kernel `SignedToken`s, each of its own purpose (so that none passes as
 * another): the session cookie, the CLI's RelayState (its loopback callback and PKCE challenge,
 * which the IdP may see: signed, not secret) and the one-time code the CLI exchanges.
 */
const Session = Schema.Struct({ userId: Schema.String, organizationId: Schema.String })
const CliRelay = Schema.Struct({ callback: Schema.String, challenge: Schema.String })
const CliCode = Schema.Struct({ userId: Schema.String, organizationId: Schema.String, challenge: Schema.String, nonce: Schema.String })

/** The keys of sign-in's tokens, under the instance secret (without one, the process's: sessions end with it). */
const keys = Effect.all({
  session: SignedToken.keyFor("sso-session"),
  relay: SignedToken.keyFor("sso-cli-relay"),
  code: SignedToken.keyFor("sso-cli-code")
})

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

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

/** The single sign-on session a request's cookies carry: who, signed in to which organization. */
export const sessionOf = (cookies: Readonly<Record<string, string | undefined>>) => {
  const cookie = cookies[sessionCookie]
  return cookie === undefined
    ? Effect.succeed(Option.none<typeof Session.Type>())
    : Effect.flatMap(SignedToken.keyFor("sso-session"), (key) =>
      Effect.map(SignedToken.open(key, Session, cookie), Option.map(({ value }) => value)))
}

/** The caller a session makes: its person, reaching the organization it signed in to only. */
const sessionActor = (session: { readonly userId: string; readonly organizationId: string }) => ({
  userId: session.userId,
  instanceAdmin: false,
  scope: session.organizationId
})

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

/** A loopback callback of the CLI (`quire login --sso`): http on 127.0.0.1, ::1 or localhost. */
export const isLoopbackCallback = (url: URL) =>
  url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname) && url.port !== ""

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const signIn = yield* SamlSignIn
  const providers = yield* SamlProviders
  const users = yield* Users
  const urls = yield* PublicUrl
  const key = yield* keys
  const origin = new URL(urls.base).origin
  const secure = new URL(urls.base).protocol === "https:"
  const signedInPage = urls.app("/sso/signed-in")

  /**
   * Where to go after sign-in: our own origin, else the signed-in page. A CLI's loopback callback
   * comes back only signed by `start` with its code challenge (see `cliRelay`).
   */
  const relayTarget = (relayState: string | undefined): URL => {
    if (relayState !== undefined && relayState !== "") {
      try {
        const url = new URL(relayState, urls.base)
        if (url.origin === origin) return url
      } catch {
        // not a URL: fall through
      }
    }
    return new URL(signedInPage)
  }

  const sp = (organizationId: string, providerId: string): ServiceProvider => serviceUrls(urls, organizationId, providerId)

  const session = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => sessionOf(request.cookies))

  const providerParams = Effect.map(HttpRouter.params, (p) => ({ organizationId: p.organizationId ?? "", providerId: p.providerId ?? "" }))

  /** A CLI's sign-in in flight: its loopback callback and PKCE challenge, signed into the RelayState. */
  const cliRelay = (relayState: string | undefined) =>
    relayState === undefined
      ? Effect.succeed(undefined)
      : Effect.map(SignedToken.open(key.relay, CliRelay, relayState), (opened) =>
        Option.isNone(opened) ? undefined : { callback: new URL(opened.value.value.callback), challenge: opened.value.value.challenge })

  /**
   * The RelayState to send the IdP: a loopback callback (the CLI) only with an S256 code
   * challenge, both signed so that the ACS trusts them; anything else as `relayTarget` allows.
   */
  const relayFor = (query: URLSearchParams): Effect.Effect<string | { readonly refused: string }> => {
    const relay = query.get("RelayState") ?? undefined
    let loopback: URL | undefined
    try {
      const url = relay === undefined ? undefined : new URL(relay)
      if (url !== undefined && isLoopbackCallback(url)) loopback = url
    } catch {
      // not an absolute URL: relayTarget decides
    }
    if (loopback === undefined) return Effect.succeed(relayTarget(relay).href)
    const challenge = query.get("code_challenge") ?? ""
    if (query.get("code_challenge_method") !== "S256") return Effect.succeed({ refused: "code_challenge_method must be S256 for a loopback RelayState" })
    if (!challengePattern.test(challenge)) {
      return Effect.succeed({ refused: "code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)" })
    }
    return SignedToken.issue(key.relay, CliRelay, { callback: loopback.href, challenge }, { expiresIn: cliRelaySeconds })
  }

  yield* router.add("GET", "/sso/saml/:organizationId/:providerId/start", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    const request = yield* HttpServerRequest.HttpServerRequest
    const relay = yield* relayFor(new URL(request.url, "http://x").searchParams)
    if (typeof relay !== "string") return page(400, "Sign-in refused", `<p>${escapeHtml(relay.refused)}</p>`)
    return yield* signIn.start(organizationId, providerId, sp(organizationId, providerId), relay).pipe(
      Effect.map((location) => HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store" } })),
      Effect.catchTag("NotFound", () => Effect.succeed(page(404, "Unknown sign-in", "<p>This organization has no active SAML provider with this id.</p>")))
    )
  }))

  // Where `quire login --sso ORG` sends the browser: the organization's (first) active provider,
  // so that the CLI needs no token to find it. RelayState is passed on.
  yield* router.add("GET", "/sso/orgs/:organizationId/start", Effect.gen(function*() {
    const { organizationId } = yield* providerParams
    const request = yield* HttpServerRequest.HttpServerRequest
    const active = yield* providers.logins(organizationId)
    const provider = active[0]
    if (provider === undefined) return page(404, "Unknown sign-in", "<p>This organization has no active SAML provider.</p>")
    const start = new URL(serviceUrls(urls, organizationId, provider.id).startURL)
    start.search = new URL(request.url, "http://x").search
    return HttpServerResponse.redirect(start.href, { status: 302, headers: { "cache-control": "no-store" } })
  }))

  yield* router.add("GET", "/sso/saml/:organizationId/:providerId/metadata.xml", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    return yield* signIn.metadata(organizationId, providerId, sp(organizationId, providerId)).pipe(
      Effect.map((xml) => HttpServerResponse.text(xml, { contentType: "application/samlmetadata+xml" })),
      Effect.catchTag("NotFound", () => Effect.succeed(envelope(404, `SAML provider ${JSON.stringify(providerId)} not found`)))
    )
  }))

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
    return yield* signIn.consume(organizationId, providerId, sp(organizationId, providerId), samlResponse).pipe(
      Effect.flatMap((signedIn) => Effect.gen(function*() {
        const user = { userId: signedIn.user.id, organizationId: signedIn.organizationId }
        const cookie = yield* SignedToken.issue(key.session, Session, user, { expiresIn: sessionSeconds })
        const cli = yield* cliRelay(field("RelayState"))
        // The CLI's code goes to its listener in a form's body, bound to the challenge it started with.
        const answer = cli === undefined
          ? HttpServerResponse.redirect(relayTarget(field("RelayState")).href, { status: 303, headers: { "cache-control": "no-store" } })
          : cliHandoffPage(
            cli.callback,
            yield* SignedToken.issue(key.code, CliCode, { ...user, challenge: cli.challenge, nonce: randomUUID() }, { expiresIn: codeSeconds })
          )
        return yield* HttpServerResponse.setCookie(
          answer,
          sessionCookie,
          cookie,
          { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: `${sessionSeconds} seconds` }
        ).pipe(Effect.orDie)
      })),
      Effect.catchTags({
        SamlRejected: (error) => Effect.succeed(page(400, "Sign-in refused", `<p>${escapeHtml(error.message)}</p>`)),
        NotFound: () => Effect.succeed(page(404, "Unknown sign-in", "<p>This organization has no active SAML provider with this id.</p>"))
      })
    )
  }))

  yield* router.add("GET", "/sso/signed-in", Effect.gen(function*() {
    const current = yield* session
    if (Option.isNone(current)) return page(401, "Not signed in", "<p>Sign in with your organization's single sign-on first.</p>")
    const user = yield* users.get(current.value.userId).pipe(
      Effect.provideService(Actor.Actor, sessionActor(current.value)),
      Effect.option
    )
    const email = Option.match(user, { onNone: () => "", onSome: (u) => u.email })
    return page(200, "Signed in", `<p>Signed in as ${escapeHtml(email)}.</p><form method="post" action="/sso/session/tokens"><button>Create an API token</button></form>`)
  }))

  // The one API operation a session may perform. SameSite=Lax keeps the cookie off cross-site
  // POSTs, and the Origin check refuses what a browser sends from another origin anyway.
  yield* router.add("POST", "/sso/session/tokens", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const from = request.headers["origin"]
    if (from !== undefined && from !== origin) return envelope(403, "Cross-origin requests cannot use the session")
    const current = yield* session
    if (Option.isNone(current)) return envelope(401, "A single sign-on session is required")
    const created = yield* users.createToken(current.value.userId, { label: "single sign-on" }).pipe(
      Effect.provideService(Actor.Actor, sessionActor(current.value)),
      Effect.orDie
    )
    const wantsJson = (request.headers["accept"] ?? "").includes("application/json")
    return wantsJson
      ? HttpServerResponse.jsonUnsafe({ id: created.token.id, token: created.secret }, { status: 201, headers: { "cache-control": "no-store" } })
      : page(201, "API token created", `<p>Copy it now: it is not shown again.</p><pre>${escapeHtml(created.secret)}</pre>`)
  }))

  // `quire login --sso`: the CLI trades the one-time code its loopback listener received, and the
  // PKCE verifier only it knows, for a token of the organization it signed in to.
  yield* router.add("POST", "/sso/cli/token", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.orElseSucceed(request.json, () => ({}))
    const text = (name: string) => {
      const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined
      return typeof value === "string" ? value : ""
    }
    const opened = yield* SignedToken.open(key.code, CliCode, text("code"))
    if (Option.isNone(opened) || opened.value.expiresAt === undefined) return envelope(400, "code: invalid or expired sign-in code")
    const { value: { userId, organizationId, challenge, nonce }, expiresAt: expires } = opened.value
    const verifier = text("code_verifier")
    if (!verifierPattern.test(verifier)) return envelope(400, "code_verifier: required, 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'")
    const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"))
    if (computed.length !== challenge.length || !timingSafeEqual(computed, Buffer.from(challenge))) {
      return envelope(400, "code_verifier: does not match the code_challenge the sign-in started with")
    }
    if (!(yield* signIn.consumeOnce(nonce, new Date(expires * 1000)))) return envelope(400, "code: this sign-in code was already used")
    const actor = sessionActor({ userId, organizationId })
    const created = yield* users.createToken(userId, { label: "quire login --sso" }).pipe(Effect.provideService(Actor.Actor, actor), Effect.orDie)
    const user = yield* users.get(userId).pipe(Effect.provideService(Actor.Actor, actor), Effect.orDie)
    return HttpServerResponse.jsonUnsafe(
      { token: created.secret, user: { id: user.id, email: user.email }, organization: organizationId },
      { headers: { "cache-control": "no-store" } }
    )
  }))
}))
