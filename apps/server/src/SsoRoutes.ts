/**
 * SAML sign-in routes (outside `/v1`; the design is in docs/sso.md): a provider's
 * `start` (redirect to the IdP), `acs` (the IdP's POST), `metadata.xml`; the session they start
 * (a signed cookie) is accepted only by the "signed in" page and its token creation; the CLI
 * exchanges a one-time code for a token.
 */
import { Effect, Option, Redacted } from "effect"
import * as InstanceSecret from "@quire/kernel/InstanceSecret"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { SamlProviders, SamlSignIn, type ServiceProvider, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { envelope } from "./ErrorEnvelope.ts"
import { PublicUrl } from "./PublicUrl.ts"

export const sessionCookie = "quire_session"
const sessionSeconds = 8 * 3600
const codeSeconds = 120

/** The SP side of a provider: its entity id, ACS, start and metadata URLs. */
export const serviceUrls = (urls: PublicUrl["Service"], organizationId: string, providerId: string) => {
  const base = urls.app(`/sso/saml/${organizationId}/${providerId}`)
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start`, metadataURL: `${base}/metadata.xml` }
}

/** `<payload>.<signature>` of a JSON array, HMAC-SHA256. */
const seal = (key: Buffer, fields: ReadonlyArray<string | number>) => {
  const payload = Buffer.from(JSON.stringify(fields)).toString("base64url")
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`
}
const unseal = (key: Buffer, token: string): Array<unknown> | undefined => {
  const [payload, signature, ...rest] = token.split(".")
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined
  const expected = createHmac("sha256", key).update(payload).digest()
  const given = Buffer.from(signature, "base64url")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const fields: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
    return Array.isArray(fields) ? fields : undefined
  } catch {
    return undefined
  }
}

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

// Without an instance secret (the memory server), one random key for this process (sessions end with it).
const processKey = randomBytes(32)

/** Sessions and CLI codes are signed under a key derived from the instance secret (`InstanceSecret`). */
const sessionKey = Effect.map(
  Effect.orDie(InstanceSecret.configured),
  Option.match({
    onNone: () => processKey,
    onSome: (secret) => createHmac("sha256", Redacted.value(secret)).update("quire/sso-session/v1").digest()
  })
)

/** The single sign-on session a request's cookies carry: who, signed in to which organization. */
export const sessionOf = (cookies: Readonly<Record<string, string | undefined>>) =>
  Effect.map(sessionKey, (key) => {
    const cookie = cookies[sessionCookie]
    const fields = cookie === undefined ? undefined : unseal(key, cookie)
    if (fields === undefined || fields[0] !== "session") return Option.none<{ userId: string; organizationId: string }>()
    const [, userId, organizationId, expires] = fields
    if (typeof userId !== "string" || typeof organizationId !== "string" || typeof expires !== "number") return Option.none()
    if (expires <= Math.floor(Date.now() / 1000)) return Option.none()
    return Option.some({ userId, organizationId })
  })

/** A loopback callback of the CLI (`quire login --sso`): http on 127.0.0.1, ::1 or localhost. */
export const isLoopbackCallback = (url: URL) =>
  url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname) && url.port !== ""

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const signIn = yield* SamlSignIn
  const providers = yield* SamlProviders
  const users = yield* Users
  const urls = yield* PublicUrl
  const key = yield* sessionKey
  const origin = new URL(urls.base).origin
  const secure = new URL(urls.base).protocol === "https:"
  const signedInPage = urls.app("/sso/signed-in")

  /** Where to go after sign-in: our own origin or a CLI loopback callback, else the signed-in page. */
  const relayTarget = (relayState: string | undefined): URL => {
    if (relayState !== undefined && relayState !== "") {
      try {
        const url = new URL(relayState, urls.base)
        if (url.origin === origin || isLoopbackCallback(url)) return url
      } catch {
        // not a URL: fall through
      }
    }
    return new URL(signedInPage)
  }

  const sp = (organizationId: string, providerId: string): ServiceProvider => serviceUrls(urls, organizationId, providerId)

  const session = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => sessionOf(request.cookies))

  const providerParams = Effect.map(HttpRouter.params, (p) => ({ organizationId: p.organizationId ?? "", providerId: p.providerId ?? "" }))

  yield* router.add("GET", "/sso/saml/:organizationId/:providerId/start", Effect.gen(function*() {
    const { organizationId, providerId } = yield* providerParams
    const request = yield* HttpServerRequest.HttpServerRequest
    const relay = new URL(request.url, "http://x").searchParams.get("RelayState") ?? undefined
    const target = relayTarget(relay)
    return yield* signIn.start(organizationId, providerId, sp(organizationId, providerId), target.href).pipe(
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
      Effect.flatMap((signedIn) => {
        const now = Math.floor(Date.now() / 1000)
        const cookie = seal(key, ["session", signedIn.user.id, signedIn.organizationId, now + sessionSeconds])
        const target = relayTarget(field("RelayState"))
        if (isLoopbackCallback(target)) {
          target.searchParams.set("code", seal(key, ["code", signedIn.user.id, randomUUID(), now + codeSeconds]))
        }
        return HttpServerResponse.setCookie(
          HttpServerResponse.redirect(target.href, { status: 303, headers: { "cache-control": "no-store" } }),
          sessionCookie,
          cookie,
          { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: `${sessionSeconds} seconds` }
        ).pipe(Effect.orDie)
      }),
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
      Effect.provideService(Actor.Actor, { userId: current.value.userId, instanceAdmin: false }),
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
      Effect.provideService(Actor.Actor, { userId: current.value.userId, instanceAdmin: false }),
      Effect.orDie
    )
    const wantsJson = (request.headers["accept"] ?? "").includes("application/json")
    return wantsJson
      ? HttpServerResponse.jsonUnsafe({ id: created.token.id, token: created.secret }, { status: 201, headers: { "cache-control": "no-store" } })
      : page(201, "API token created", `<p>Copy it now: it is not shown again.</p><pre>${escapeHtml(created.secret)}</pre>`)
  }))

  // `quire login --sso`: the CLI trades the one-time code its loopback callback received for a token.
  yield* router.add("POST", "/sso/cli/token", Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.orElseSucceed(request.json, () => ({}))
    const code = typeof body === "object" && body !== null && "code" in body && typeof body.code === "string" ? body.code : ""
    const fields = unseal(key, code)
    if (fields === undefined || fields[0] !== "code") return envelope(400, "Invalid sign-in code")
    const [, userId, nonce, expires] = fields
    if (typeof userId !== "string" || typeof nonce !== "string" || typeof expires !== "number" || expires <= Math.floor(Date.now() / 1000)) {
      return envelope(400, "Invalid or expired sign-in code")
    }
    if (!(yield* signIn.consumeOnce(nonce, new Date(expires * 1000)))) return envelope(400, "This sign-in code was already used")
    const created = yield* users.createToken(userId, { label: "quire login --sso" }).pipe(
      Effect.provideService(Actor.Actor, { userId, instanceAdmin: false }),
      Effect.orDie
    )
    const user = yield* users.get(userId).pipe(Effect.provideService(Actor.Actor, { userId, instanceAdmin: false }), Effect.orDie)
    return HttpServerResponse.jsonUnsafe({ token: created.secret, user: { id: user.id, email: user.email } }, { headers: { "cache-control": "no-store" } })
  }))
}))
