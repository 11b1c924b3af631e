/**
 * Sign-in sessions: what a sign-in method (SAML today) leads to, whichever method it was. A
 * session (the token a browser keeps), the API tokens it creates, and the CLI's hand-off: its
 * loopback callback and PKCE challenge sealed into the sign-in's state, then a one-time code bound
 * to that challenge, redeemed once with the verifier for a token. Every token here is a kernel
 * `SignedToken` of its own purpose. Cookies, pages and redirects are the server's.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { createHash, randomUUID, timingSafeEqual } from "node:crypto"
import { Actor, type Errors, SignedToken } from "@quire/kernel"
import type { User } from "./domain/Identity.ts"
import { SignInRefused } from "./domain/SignIn.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"
import { reaches } from "./Scope.ts"
import { type NewToken, Users } from "./Users.ts"

/**
 * Who a session speaks for: a person and, when an organization's identity provider signed them
 * in, that organization, the only one the session and its tokens reach. A method that vouches
 * for the whole account (none yet) starts a session without one.
 */
export const SignInSession = Schema.Struct({ userId: Schema.String, organizationId: Schema.optionalKey(Schema.String) })
export type SignInSession = typeof SignInSession.Type

/** A session just begun: the token that carries it, valid for `maxAgeSeconds`. */
export interface SessionGrant {
  readonly token: string
  readonly maxAgeSeconds: number
}

/** A CLI's sign-in request: its loopback callback and RFC 7636 code challenge. */
export interface CliRequest {
  readonly callback: URL
  readonly challenge: string
  readonly challengeMethod: string | undefined
}

/** What to hand a CLI's loopback callback after its sign-in: the one-time code. */
export interface CliHandoff {
  readonly callback: URL
  readonly code: string
}

/** A redeemed CLI code: a new API token of its session, for its person. */
export interface CliSignedIn {
  readonly secret: string
  readonly user: User
  readonly organizationId: string | undefined
}

export interface SignInSessionsShape {
  /** Begins a session for someone a sign-in method vouched for. */
  readonly begin: (session: SignInSession) => Effect.Effect<SessionGrant>
  /** The session `token` carries, when we signed it and it has not expired. */
  readonly open: (token: string) => Effect.Effect<Option.Option<SignInSession>>
  /** The session's person, as the session sees them. */
  readonly user: (session: SignInSession) => Effect.Effect<User, Errors.NotFound>
  /** A new API token of the session's person, reaching what the session reaches. */
  readonly createToken: (session: SignInSession, label: string) => Effect.Effect<NewToken, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput>
  /** Whether the session reaches the organization as one of its enabled members with a role (who read its members' sites). */
  readonly isMember: (session: SignInSession, organizationId: string) => Effect.Effect<boolean>
  /** The state (SAML's RelayState) that carries a CLI's request through the IdP and back: signed, not secret. */
  readonly sealCliRequest: (request: CliRequest) => Effect.Effect<string, SignInRefused>
  /** After a sign-in whose state is a sealed CLI request, the code to hand its callback; none for any other state. */
  readonly cliHandoff: (session: SignInSession, state: string | undefined) => Effect.Effect<Option.Option<CliHandoff>>
  /** Redeems a CLI's one-time code, with the verifier of its challenge, for a new API token of its session. */
  readonly redeemCliCode: (code: string, verifier: string) => Effect.Effect<CliSignedIn, SignInRefused>
}

/** How long a session lasts. */
export const sessionSeconds = 8 * 3600
/** How long a CLI's one-time code may wait to be redeemed. */
const codeSeconds = 120
/** How long the IdP round trip of a CLI sign-in may take. */
const cliRequestSeconds = 10 * 60
/** RFC 7636's code_challenge for S256: base64url of a SHA-256, 43 characters. */
const challengePattern = /^[A-Za-z0-9_-]{43}$/
/** RFC 7636's code_verifier: 43 to 128 unreserved characters. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/

/*
 * Each token is of its own purpose, so that none passes as another: the session, the CLI's
 * request (sealed into the RelayState, which the IdP may see) and the one-time code.
 */
const CliRequestToken = Schema.Struct({ callback: Schema.String, challenge: Schema.String })
const CliCode = Schema.Struct({ ...SignInSession.fields, challenge: Schema.String, nonce: Schema.String })

/** A loopback callback of the CLI (`quire login --sso`): http on 127.0.0.1, ::1 or localhost. */
export const isLoopbackCallback = (url: URL) =>
  url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname) && url.port !== ""

/** The caller a session makes: its person, reaching its organization only when it has one. */
export const sessionActor = (session: SignInSession): Actor.ActorShape => ({
  userId: session.userId,
  instanceAdmin: false,
  scope: session.organizationId
})

/** Whether `verifier` is the one whose S256 challenge is `challenge`, compared in constant time. */
const verifies = (verifier: string, challenge: string) => {
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"))
  return computed.length === challenge.length && timingSafeEqual(computed, Buffer.from(challenge))
}

const refused = (reason: string) => Effect.fail(new SignInRefused({ reason }))

export class SignInSessions extends Context.Service<SignInSessions, SignInSessionsShape>()("@quire/identity/SignInSessions") {
  /** Keys from the instance secret (`SignedToken.keyFor`); without one, the process's: sessions end with it. */
  static readonly layer = Layer.effect(
    SignInSessions,
    Effect.gen(function*() {
      const users = yield* Users
      const members = yield* MembersRepo
      const store = yield* SamlSignInRepo
      const key = yield* Effect.all({
        session: SignedToken.keyFor("sso-session"),
        request: SignedToken.keyFor("sso-cli-relay"),
        code: SignedToken.keyFor("sso-cli-code")
      })

      const begin = (session: SignInSession) =>
        Effect.map(SignedToken.issue(key.session, SignInSession, session, { expiresIn: sessionSeconds }), (token) => ({ token, maxAgeSeconds: sessionSeconds }))

      const open = (token: string) => Effect.map(SignedToken.open(key.session, SignInSession, token), Option.map(({ value }) => value))

      const user = (session: SignInSession) => users.get(session.userId).pipe(Effect.provideService(Actor.Actor, sessionActor(session)))

      const createToken = (session: SignInSession, label: string) =>
        users.createToken(session.userId, { label }).pipe(Effect.provideService(Actor.Actor, sessionActor(session)))

      const isMember = (session: SignInSession, organizationId: string) =>
        reaches(sessionActor(session), organizationId)
          ? Effect.map(members.find(organizationId, session.userId), (member) =>
            Option.isSome(member) && member.value.role !== null && !member.value.disabled)
          : Effect.succeed(false)

      const sealCliRequest = ({ callback, challenge, challengeMethod }: CliRequest) => {
        if (!isLoopbackCallback(callback)) return refused("the callback must be a loopback http URL with a port")
        if (challengeMethod !== "S256") return refused("code_challenge_method must be S256 for a loopback RelayState")
        if (!challengePattern.test(challenge)) {
          return refused("code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)")
        }
        return SignedToken.issue(key.request, CliRequestToken, { callback: callback.href, challenge }, { expiresIn: cliRequestSeconds })
      }

      const cliHandoff = Effect.fnUntraced(function*(session: SignInSession, state: string | undefined) {
        if (state === undefined) return Option.none<CliHandoff>()
        const opened = yield* SignedToken.open(key.request, CliRequestToken, state)
        if (Option.isNone(opened)) return Option.none<CliHandoff>()
        const { callback, challenge } = opened.value.value
        const nonce = yield* Effect.sync(randomUUID)
        const code = yield* SignedToken.issue(key.code, CliCode, { ...session, challenge, nonce }, { expiresIn: codeSeconds })
        return Option.some({ callback: new URL(callback), code })
      })

      // The checks run in this order, each with its own answer: the code, the verifier's form,
      // the verifier against the challenge, and only then the code's single use.
      const redeemCliCode = Effect.fn("SignInSessions.redeemCliCode")(function*(code: string, verifier: string) {
        const opened = yield* SignedToken.open(key.code, CliCode, code)
        if (Option.isNone(opened) || opened.value.expiresAt === undefined) return yield* refused("code: invalid or expired sign-in code")
        const { value: { challenge, nonce, ...session }, expiresAt } = opened.value
        if (!verifierPattern.test(verifier)) {
          return yield* refused("code_verifier: required, 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'")
        }
        if (!verifies(verifier, challenge)) return yield* refused("code_verifier: does not match the code_challenge the sign-in started with")
        const now = new Date(yield* Clock.currentTimeMillis)
        if (!(yield* store.consumeOnce(`once:${nonce}`, new Date(expiresAt * 1000), now))) {
          return yield* refused("code: this sign-in code was already used")
        }
        const created = yield* Effect.orDie(createToken(session, "quire login --sso"))
        const person = yield* Effect.orDie(user(session))
        return { secret: created.secret, user: person, organizationId: session.organizationId }
      })

      return SignInSessions.of({ begin, open, user, createToken, isMember, sealCliRequest, cliHandoff, redeemCliCode })
    })
  )
}
