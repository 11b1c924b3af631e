/**
 * SAML 2.0 sign-in with an organization's provider, Quire being the service provider (SP):
 * signed AuthnRequests (HTTP-Redirect binding), validation of the IdP's POSTed responses
 * (@node-saml/node-saml, plus destination and replay checks of ours), just-in-time membership,
 * and the SP's metadata. Whom it signs in gets a session from `SignInSessions`.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import type { CacheProvider, Profile } from "@node-saml/node-saml"
import { Errors, Transactor } from "@quire/kernel"
import { type SamlProvider, SamlRejected, samlStatus } from "./domain/Saml.ts"
import { SamlProvidersRepo } from "./SamlProvidersRepo.ts"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"
import * as SamlSpKey from "./SamlSpKey.ts"
import { selfSignedCertificate } from "./SpCertificate.ts"
import { SsoProvisioning, type SsoSignedIn } from "./SsoProvisioning.ts"

/** Where Quire, as the SP of one provider, is reached: computed by the server from its public URL. */
/**
 * node-saml on the first SAML sign-in: it and the XML signature and parsing libraries it loads
 * (some 1 MB of code) are not held by a process whose organizations never use SAML (Node keeps the
 * module once loaded). The built bundles keep them in a chunk of their own.
 */
const nodeSaml = Effect.promise(() => import("@node-saml/node-saml"))

export interface ServiceProvider {
  readonly entityID: string
  readonly acsURL: string
}

/** Who signed in, and into which organization. */
export type SamlSignedIn = SsoSignedIn

/** Clock skew accepted on NotBefore / NotOnOrAfter. */
export const acceptedSkewMs = 2 * 60 * 1000
/** How long an IdP has to answer an AuthnRequest. */
const requestLifetimeMs = 10 * 60 * 1000
/** How long a consumed assertion id is remembered: beyond any validity window accepted. */
const replayWindowMs = 24 * 60 * 60 * 1000

/** A sign-in begun: the IdP URL to send the browser to, and the id of its AuthnRequest, which the browser keeps (a cookie). */
export interface SamlStarted {
  readonly location: string
  readonly requestId: string
}

export interface SamlSignInShape {
  /** The IdP URL (with a signed AuthnRequest and `relayState`) that starts a sign-in, and the request's id. */
  readonly start: (organizationId: string, providerId: string, sp: ServiceProvider, relayState: string) => Effect.Effect<SamlStarted, Errors.NotFound>
  /**
   * Validates a POSTed `SAMLResponse` and signs its subject in, provisioning the member if needed.
   * `browserRequestId` is the AuthnRequest id the posting browser holds: the response must answer
   * that request (its InResponseTo), so that nobody's sign-in lands in another's browser.
   */
  readonly consume: (
    organizationId: string,
    providerId: string,
    sp: ServiceProvider,
    samlResponse: string,
    browserRequestId: string | undefined
  ) => Effect.Effect<SamlSignedIn, Errors.NotFound | SamlRejected>
  /** The SP metadata XML of a provider, with the SP signing certificate (AuthnRequestsSigned). */
  readonly metadata: (organizationId: string, providerId: string, sp: ServiceProvider) => Effect.Effect<string, Errors.NotFound>
}

/** The email of a SAML subject: a common email attribute, else a NameID that is an email. */
export const emailOf = (profile: Profile): string | undefined => {
  const candidates = [
    profile.email,
    profile.mail,
    profile["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"],
    profile["urn:oid:0.9.2342.19200300.100.1.3"],
    profile.nameID
  ]
  for (const candidate of candidates) {
    const value = Array.isArray(candidate) ? candidate[0] : candidate
    if (typeof value === "string" && /^[^\s@]+@[^\s@]+$/.test(value)) return value.toLowerCase()
  }
  return undefined
}

const displayNameOf = (profile: Profile, email: string): string => {
  const name = profile["displayName"] ?? profile["http://schemas.microsoft.com/identity/claims/displayname"]
  const value = Array.isArray(name) ? name[0] : name
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, 100) : email.split("@")[0] ?? email
}

/** The `Destination` of the response's root element, if any. */
const destinationOf = (xml: string): string | undefined =>
  /^\s*(?:<\?xml[^>]*>\s*)?<(?:\w+:)?Response\b[^>]*?\sDestination="([^"]*)"/.exec(xml)?.[1]

/** The `InResponseTo` of the response's root element, if any. */
const inResponseToOf = (xml: string): string | undefined =>
  /^\s*(?:<\?xml[^>]*>\s*)?<(?:\w+:)?Response\b[^>]*?\sInResponseTo="([^"]*)"/.exec(xml)?.[1]

/** A fresh AuthnRequest id, as node-saml makes them (an XML ID: it starts with a letter or `_`). */
const newRequestId = () => `_${randomBytes(20).toString("hex")}`

/** The `ID` of the (one) signed assertion. */
const assertionIdOf = (assertionXml: string): string | undefined =>
  /<(?:\w+:)?Assertion\b[^>]*?\sID="([^"]+)"/.exec(assertionXml)?.[1]

export class SamlSignIn extends Context.Service<SamlSignIn, SamlSignInShape>()("@quire/identity/SamlSignIn") {
  static readonly layer = Layer.effect(
    SamlSignIn,
    Effect.gen(function*() {
      const providers = yield* SamlProvidersRepo
      const store = yield* SamlSignInRepo
      const provisioning = yield* SsoProvisioning
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      // The SP signing key: generated once per installation and kept, sealed under the instance
      // secret, in identity's storage (`SamlSpKey`); one an older Quire stored in clear is sealed
      // now. Loaded (or made) on first use, so that servers that never use SAML do no RSA work.
      const spKeyBox = yield* SamlSpKey.box
      yield* SamlSpKey.sealLegacy(store, spKeyBox)
      const spKeys = yield* Effect.cached(Effect.gen(function*() {
        const key = yield* SamlSpKey.load(store, spKeyBox)
        return { key, certificate: selfSignedCertificate(key, "Quire SAML service provider") }
      }))

      // Ids of AuthnRequests sent (in identity's storage, so that any replica can receive the
      // answer): a response's InResponseTo, when present, must name one of them. node-saml calls
      // back with promises: they run with the services (the Clock among them) of the sign-in's caller.
      const requestCacheIn = (context: Context.Context<never>): CacheProvider => {
        const run = Effect.runPromiseWith(context)
        return {
          saveAsync: (id, value) =>
            run(Effect.gen(function*() {
              const createdAt = yield* Clock.currentTimeMillis
              yield* store.saveRequest(id, new Date(createdAt + requestLifetimeMs))
              return { value, createdAt }
            })),
          // node-saml reads the value as the instant the request was sent.
          getAsync: (id) =>
            run(Effect.gen(function*() {
              const expiry = yield* store.findRequest(id, yield* now)
              return Option.isSome(expiry) ? new Date(expiry.value.getTime() - requestLifetimeMs).toISOString() : null
            })),
          removeAsync: (id) => id === null ? Promise.resolve(null) : run(Effect.as(store.removeRequest(id), id))
        }
      }

      const activeProvider = Effect.fnUntraced(function*(organizationId: string, providerId: string) {
        const found = yield* providers.find(organizationId, providerId)
        if (Option.isNone(found) || samlStatus(found.value) !== "active") {
          return yield* new Errors.NotFound({ resource: "SAML provider", id: providerId })
        }
        return found.value
      })

      const samlOf = Effect.fnUntraced(function*(provider: SamlProvider, sp: ServiceProvider, requestId?: string) {
        const { key } = yield* spKeys
        const context = yield* Effect.context<never>()
        const { SAML, ValidateInResponseTo } = yield* nodeSaml
        return new SAML({
          // A pending provider (metadata only) has no certificate yet; nothing is validated then.
          idpCert: provider.certificate ?? "none",
          issuer: sp.entityID,
          callbackUrl: sp.acsURL,
          entryPoint: provider.ssoURL ?? "",
          idpIssuer: provider.entityID ?? "",
          audience: sp.entityID,
          privateKey: key,
          signatureAlgorithm: "sha256",
          // Either the response or its assertion must carry a valid signature.
          wantAuthnResponseSigned: false,
          wantAssertionsSigned: false,
          acceptedClockSkewMs: acceptedSkewMs,
          // Every response answers a request of ours (and of the browser that posts it, see `consume`):
          // IdP-initiated (unsolicited) responses are refused.
          validateInResponseTo: ValidateInResponseTo.always,
          ...(requestId === undefined ? {} : { generateUniqueId: () => requestId }),
          requestIdExpirationPeriodMs: requestLifetimeMs,
          cacheProvider: requestCacheIn(context),
          identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
        })
      })

      const start = Effect.fn("SamlSignIn.start")(function*(organizationId: string, providerId: string, sp: ServiceProvider, relayState: string) {
        const provider = yield* activeProvider(organizationId, providerId)
        const requestId = newRequestId()
        const saml = yield* samlOf(provider, sp, requestId)
        const location = yield* Effect.promise(() => saml.getAuthorizeUrlAsync(relayState, undefined, {}))
        return { location, requestId }
      })

      const metadata = Effect.fn("SamlSignIn.metadata")(function*(organizationId: string, providerId: string, sp: ServiceProvider) {
        const found = yield* providers.find(organizationId, providerId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "SAML provider", id: providerId })
        const { certificate } = yield* spKeys
        return (yield* samlOf(found.value, sp)).generateServiceProviderMetadata(null, certificate)
      })

      const consume = Effect.fn("SamlSignIn.consume")(function*(
        organizationId: string,
        providerId: string,
        sp: ServiceProvider,
        samlResponse: string,
        browserRequestId: string | undefined
      ) {
        const provider = yield* activeProvider(organizationId, providerId)
        const xml = Buffer.from(samlResponse, "base64").toString("utf8")
        // The browser that began the sign-in holds its request's id: a response posted from another
        // browser (login CSRF), or sent by the IdP unasked, is refused before anything is validated.
        const inResponseTo = inResponseToOf(xml)
        if (inResponseTo === undefined || inResponseTo === "") {
          return yield* new SamlRejected({ reason: "the response answers no sign-in request of Quire's: start the sign-in from Quire" })
        }
        if (browserRequestId === undefined || browserRequestId !== inResponseTo) {
          return yield* new SamlRejected({ reason: "this sign-in was not begun in this browser: start again" })
        }
        const destination = destinationOf(xml)
        if (destination !== sp.acsURL) {
          return yield* new SamlRejected({ reason: `the response's Destination must be ${sp.acsURL}` })
        }
        const saml = yield* samlOf(provider, sp)
        const result = yield* Effect.tryPromise({
          try: () => saml.validatePostResponseAsync({ SAMLResponse: samlResponse }),
          catch: (error) => new SamlRejected({ reason: error instanceof Error ? error.message : String(error) })
        })
        const profile = result.profile
        if (profile === null) return yield* new SamlRejected({ reason: "the response signs nobody in" })
        if (profile.inResponseTo !== browserRequestId) return yield* new SamlRejected({ reason: "this sign-in was not begun in this browser: start again" })
        const assertionId = assertionIdOf(profile.getAssertionXml?.() ?? "")
        if (assertionId === undefined) return yield* new SamlRejected({ reason: "the assertion has no ID" })
        const email = emailOf(profile)
        if (email === undefined) return yield* new SamlRejected({ reason: "the assertion names no email address" })
        const at = yield* now
        return yield* Effect.gen(function*() {
          const fresh = yield* store.consumeOnce(`assertion:${provider.entityID}:${assertionId}`, new Date(at.getTime() + replayWindowMs), at)
          if (!fresh) return yield* new SamlRejected({ reason: "this assertion was already used" })
          return yield* provisioning.provision(provider, email, displayNameOf(profile, email)).pipe(
            Effect.mapError((refused) => new SamlRejected({ reason: refused.reason }))
          )
        }).pipe(transactor.transaction)
      })

      return SamlSignIn.of({ start, consume, metadata })
    })
  )
}
