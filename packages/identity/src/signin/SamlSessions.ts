/**
 * SAML sign-in as a session: where to send the browser after the IdP (the server's own origin,
 * else its signed-in page; a CLI's loopback callback only when sealed with its PKCE challenge),
 * and the session a verified assertion begins, with the CLI's one-time code when the sign-in was
 * a CLI's. The server only maps these to HTTP (redirects, pages, the cookie).
 */
import { Context, Effect, Layer, Option } from "effect"
import { AuditLog } from "@quire/audit"
import type { Errors } from "@quire/kernel"
import type { SamlRejected } from "../domain/Saml.ts"
import type { SignInRefused } from "../domain/SignIn.ts"
import { SamlSignIn, type SamlStarted, type ServiceProvider } from "../SamlSignIn.ts"
import { type CliHandoff, isLoopbackCallback, type SessionGrant, SignInSessions } from "../SignInSessions.ts"

/** The server's own places: its origin (relay targets must be on it) and the page shown after sign-in. */
export interface SamlPlaces {
  readonly base: string
  readonly signedInPage: string
}

/** A SAML start request: the RelayState asked for, and a CLI's PKCE challenge. */
export interface SamlStartRequest {
  readonly relayState: string | undefined
  readonly challenge: string | undefined
  readonly challengeMethod: string | undefined
}

/** The IdP's response as the browser posted it to the ACS, with the request id the browser holds (its cookie). */
export interface SamlPosted {
  readonly samlResponse: string
  readonly relayState: string | undefined
  readonly requestId: string | undefined
  readonly userAgent: string | undefined
}

/** A completed SAML sign-in: the session begun, and where the browser goes next. */
export interface SamlCompleted {
  readonly grant: SessionGrant
  readonly next: { readonly _tag: "Redirect"; readonly url: URL } | { readonly _tag: "Cli"; readonly handoff: CliHandoff }
}

export interface SamlSessionsShape {
  /**
   * The IdP location to redirect to, carrying a RelayState we can trust when it comes back, and
   * the id of the AuthnRequest, which the browser must keep (a cookie) and bring to `complete`.
   */
  readonly start: (
    organizationId: string,
    providerId: string,
    sp: ServiceProvider,
    request: SamlStartRequest,
    places: SamlPlaces
  ) => Effect.Effect<SamlStarted, Errors.NotFound | SignInRefused>
  /** Verifies the IdP's response to the request the browser began (`requestId`) and begins the person's session, confined to the organization. */
  readonly complete: (
    organizationId: string,
    providerId: string,
    sp: ServiceProvider,
    response: SamlPosted,
    places: SamlPlaces
  ) => Effect.Effect<SamlCompleted, Errors.NotFound | SamlRejected>
}

/** Where to go after sign-in: a URL on our own origin, else the signed-in page. */
export const relayTarget = (relayState: string | undefined, places: SamlPlaces): URL => {
  if (relayState !== undefined && relayState !== "") {
    try {
      const url = new URL(relayState, places.base)
      if (url.origin === new URL(places.base).origin) return url
    } catch {
      // not a URL: fall through
    }
  }
  return new URL(places.signedInPage)
}

const loopbackOf = (relayState: string | undefined): URL | undefined => {
  try {
    const url = relayState === undefined ? undefined : new URL(relayState)
    return url !== undefined && isLoopbackCallback(url) ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * The state to carry through an identity provider (SAML's RelayState, kept by OIDC's stored
 * request): a CLI's loopback callback sealed with its challenge, else a place on our own origin.
 */
export const relayFor = (sessions: SignInSessions["Service"], request: SamlStartRequest, places: SamlPlaces) => {
  const loopback = loopbackOf(request.relayState)
  return loopback === undefined
    ? Effect.succeed(relayTarget(request.relayState, places).href)
    : sessions.sealCliRequest({ callback: loopback, challenge: request.challenge ?? "", challengeMethod: request.challengeMethod })
}

/** Where the browser goes after a sign-in began `grant`: the CLI's hand-off, else the relay target. */
export const nextAfter = Effect.fnUntraced(function*(
  sessions: SignInSessions["Service"],
  grant: SessionGrant,
  relayState: string | undefined,
  places: SamlPlaces
) {
  const handoff = yield* sessions.cliHandoff(grant.session, relayState)
  const next: SamlCompleted["next"] = Option.match(handoff, {
    onNone: () => ({ _tag: "Redirect", url: relayTarget(relayState, places) }),
    onSome: (value) => ({ _tag: "Cli", handoff: value })
  })
  return next
})

export class SamlSessions extends Context.Service<SamlSessions, SamlSessionsShape>()("@quire/identity/SamlSessions") {
  static readonly layer = Layer.effect(
    SamlSessions,
    Effect.gen(function*() {
      const signIn = yield* SamlSignIn
      const sessions = yield* SignInSessions
      const audit = yield* AuditLog

      const start = Effect.fn("SamlSessions.start")(function*(
        organizationId: string,
        providerId: string,
        sp: ServiceProvider,
        request: SamlStartRequest,
        places: SamlPlaces
      ) {
        const relay = yield* relayFor(sessions, request, places)
        return yield* signIn.start(organizationId, providerId, sp, relay)
      })

      const complete = Effect.fn("SamlSessions.complete")(function*(
        organizationId: string,
        providerId: string,
        sp: ServiceProvider,
        response: SamlPosted,
        places: SamlPlaces
      ) {
        // A refused response is recorded (no change is made, so there is no transaction to join):
        // who cannot be told from a response that failed its checks; the address is the browser's.
        const signedIn = yield* signIn.consume(organizationId, providerId, sp, response.samlResponse, response.requestId).pipe(
          Effect.tapError((error) =>
            error._tag === "SamlRejected"
              ? audit.record({
                organizationId,
                action: "auth.saml.failed",
                actor: { type: "user", id: "unknown" },
                target: { type: "sso-provider", id: providerId },
                payload: { protocol: "saml", reason: error.reason }
              })
              : Effect.void
          )
        )
        const grant = yield* sessions.begin({
          userId: signedIn.user.id,
          organizationId: signedIn.organizationId,
          method: "saml",
          userAgent: response.userAgent
        })
        return { grant, next: yield* nextAfter(sessions, grant, response.relayState, places) }
      })

      return SamlSessions.of({ start, complete })
    })
  )
}
