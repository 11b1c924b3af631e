/**
 * OpenID Connect sign-in with an organization's provider, as a session: the authorization-code
 * flow with PKCE (S256), state and nonce (openid-client, `OidcClient.ts`); the sign-in begun is
 * stored (`OidcProvidersRepo`: the state as its hash, the PKCE verifier sealed, so that a dump's
 * rows complete no sign-in), so any replica answers its callback, once; the ID token's email,
 * which the provider must say is verified, is provisioned as SAML's is (`SsoProvisioning`), and the
 * session and the CLI's hand-off are `SignInSessions`' as for SAML. The server maps these to HTTP.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditLog } from "@quire/audit"
import { Errors, Sealed, Transactor } from "@quire/kernel"
import { SignInRefused } from "../domain/SignIn.ts"
import { authorizationUrl, configure, exchange, type JwksCache, jwksCacheOf, newChecks } from "../OidcClient.ts"
import { OidcProvidersRepo } from "../OidcProvidersRepo.ts"
import { OidcSecrets } from "../OidcSecrets.ts"
import { type SessionGrant, SignInSessions } from "../SignInSessions.ts"
import { SsoProvisioning } from "../SsoProvisioning.ts"
import { nextAfter, relayFor, type SamlCompleted, type SamlPlaces, type SamlStartRequest } from "./SamlSessions.ts"

/** How long a person has at the provider before the callback. */
const requestLifetimeMs = 10 * 60 * 1000

/** The purpose of the key that seals the PKCE verifiers of sign-ins in flight. */
export const codeVerifierSealPurpose = "quire/identity/oidc-code-verifier/v1"

/** A sign-in begun: where to send the browser, and the state the browser must bring back (a cookie). */
export interface OidcStarted {
  readonly location: string
  readonly state: string
}

/** The provider's callback as it reached us: its query, and the state cookie of the browser. */
export interface OidcCallback {
  readonly query: URLSearchParams
  readonly stateCookie: string | undefined
  readonly userAgent: string | undefined
}

export interface OidcSignInShape {
  /** Begins a sign-in at the provider; `redirectURL` is Quire's callback. */
  readonly start: (
    organizationId: string,
    providerId: string,
    redirectURL: string,
    request: SamlStartRequest,
    places: SamlPlaces
  ) => Effect.Effect<OidcStarted, Errors.NotFound | SignInRefused>
  /** Checks the callback, exchanges its code, provisions the person and begins their session. */
  readonly complete: (redirectURL: string, callback: OidcCallback, places: SamlPlaces) => Effect.Effect<{ readonly grant: SessionGrant; readonly next: SamlCompleted["next"] }, SignInRefused>
}

/** A claim that is a non-empty string, if it is one. */
const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined)

export class OidcSignIn extends Context.Service<OidcSignIn, OidcSignInShape>()("@quire/identity/OidcSignIn") {
  static readonly layer = Layer.effect(
    OidcSignIn,
    Effect.gen(function*() {
      const repo = yield* OidcProvidersRepo
      const secrets = yield* OidcSecrets
      const verifierKey = yield* Sealed.keyFor(codeVerifierSealPurpose)
      const sessions = yield* SignInSessions
      const provisioning = yield* SsoProvisioning
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const refuse = (reason: string) => Effect.fail(new SignInRefused({ reason }))
      // Each provider's signing keys, by discovery URL, kept from one sign-in to the next (see `configure`).
      const keySets = new Map<string, JwksCache>()

      /** The provider's client configuration, by discovery; a provider that cannot be reached refuses the sign-in. */
      const clientOf = Effect.fnUntraced(function*(organizationId: string, providerId: string) {
        const found = yield* repo.find(organizationId, providerId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "OpenID Connect provider", id: providerId })
        const secret = yield* secrets.open(found.value.clientSecret)
        if (Option.isNone(secret)) return yield* refuse("the provider's client secret cannot be read: an administrator must enter it again")
        const config = yield* configure(found.value.discoveryURL, found.value.clientId, secret.value, keySets.get(found.value.discoveryURL)).pipe(
          Effect.mapError((error) => new SignInRefused({ reason: error.reason.replace(/^could not/, "Quire could not") }))
        )
        return { provider: found.value, config }
      })

      const start = Effect.fn("OidcSignIn.start")(function*(
        organizationId: string,
        providerId: string,
        redirectURL: string,
        request: SamlStartRequest,
        places: SamlPlaces
      ) {
        const { provider, config } = yield* clientOf(organizationId, providerId)
        const relayState = yield* relayFor(sessions, request, places)
        const checks = newChecks()
        const at = yield* now
        yield* repo.saveRequest({
          stateHash: Sealed.bearerHash(checks.state),
          sealedCodeVerifier: Sealed.seal(verifierKey, checks.codeVerifier),
          nonce: checks.nonce,
          organizationId,
          providerId,
          relayState,
          expiresAt: new Date(at.getTime() + requestLifetimeMs)
        }, at)
        return { location: yield* authorizationUrl(config, redirectURL, provider.scopes, checks), state: checks.state }
      })

      /**
       * A refused callback, recorded (it changes nothing, so it joins no transaction): in the
       * provider's organization once the stored request names it, else in the instance's log;
       * the email when the provider named one. The address is the browser's (AuditOrigin).
       */
      const recordRefusal = (known: { organizationId?: string; providerId?: string; email?: string }, reason: string) =>
        audit.record({
          organizationId: known.organizationId ?? null,
          action: "auth.oidc.failed",
          actor: known.email === undefined ? { type: "user", id: "unknown" } : { type: "user", id: "unknown", label: known.email },
          target: { type: "sso-provider", id: known.providerId ?? "unknown" },
          payload: { protocol: "oidc", reason, ...(known.email === undefined ? {} : { email: known.email }) }
        })

      const complete = (redirectURL: string, callback: OidcCallback, places: SamlPlaces) => {
        const known: { organizationId?: string; providerId?: string; email?: string } = {}
        return completeWith(redirectURL, callback, places, known).pipe(Effect.tapError((refused) => recordRefusal(known, refused.reason)))
      }

      const completeWith = Effect.fn("OidcSignIn.complete")(function*(
        redirectURL: string,
        callback: OidcCallback,
        places: SamlPlaces,
        known: { organizationId?: string; providerId?: string; email?: string }
      ) {
        const state = callback.query.get("state") ?? ""
        // The browser that began the sign-in holds its state: a callback carried to another browser
        // (login CSRF) is refused before anything is exchanged.
        if (state === "" || callback.stateCookie !== state) return yield* refuse("this sign-in was not begun in this browser: start again")
        const request = yield* repo.takeRequest(Sealed.bearerHash(state), yield* now)
        if (Option.isNone(request)) return yield* refuse("this sign-in expired or was already used: start again")
        // Sealed under another instance secret (it changed while the person was at the provider).
        const codeVerifier = Sealed.open(verifierKey, request.value.sealedCodeVerifier)
        if (Option.isNone(codeVerifier)) return yield* refuse("this sign-in expired or was already used: start again")
        const error = callback.query.get("error")
        if (error !== null) return yield* refuse(`the provider said ${error}${text(callback.query.get("error_description")) === undefined ? "" : `: ${callback.query.get("error_description")}`}`)
        const { organizationId, providerId, relayState } = request.value
        known.organizationId = organizationId
        known.providerId = providerId
        const { provider, config } = yield* clientOf(organizationId, providerId).pipe(
          Effect.catchTag("NotFound", () => refuse("this provider was removed"))
        )
        const callbackURL = new URL(redirectURL)
        callbackURL.search = callback.query.toString()
        const claims = yield* exchange(config, callbackURL, { state, nonce: request.value.nonce, codeVerifier: codeVerifier.value }).pipe(
          Effect.ensuring(Effect.sync(() => {
            const keys = jwksCacheOf(config)
            if (keys !== undefined) keySets.set(provider.discoveryURL, keys)
          }))
        )
        const email = text(claims["email"])?.toLowerCase()
        if (email === undefined || !/^[^\s@]+@[^\s@]+$/.test(email)) return yield* refuse("the provider's ID token names no email address (ask for the email scope)")
        known.email = email
        if (claims["email_verified"] !== true) return yield* refuse(`the provider does not say that ${email} is verified`)
        const displayName = (text(claims["name"]) ?? email.split("@")[0] ?? email).slice(0, 100)
        const signedIn = yield* transactor.transaction(provisioning.provision(provider, email, displayName))
        const grant = yield* sessions.begin({ userId: signedIn.user.id, organizationId, method: "oidc", userAgent: callback.userAgent })
        return { grant, next: yield* nextAfter(sessions, grant, relayState, places) }
      })

      return OidcSignIn.of({ start, complete })
    })
  )
}
