/**
 * Sign-in sessions: what a sign-in method (a password, SAML) leads to, whichever method it was. A
 * session is a stored row (its person, the organization a SAML session is confined to, how and
 * when it began, when it was last seen and expires, the browser's user agent, whether it was
 * revoked); the token a browser keeps is a kernel `SignedToken` of its id only, so revoking the
 * row ends it at once. Also the API tokens a session creates, and the CLI's hand-off: its loopback
 * callback and PKCE challenge sealed into the sign-in's state, then a one-time code bound to that
 * challenge and to the session, redeemed once with the verifier for a token. Every token here is a
 * kernel `SignedToken` of its own purpose. Cookies, pages and redirects are the server's.
 */
import { Clock, Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { AuditLog, userRef } from "@quire/audit"
import { Actor, Errors, Ids, sameSecret, Sealed, SignedToken, Transactor } from "@quire/kernel"
import type { User } from "./domain/Identity.ts"
import { SignInRefused } from "./domain/SignIn.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"
import { reaches } from "./Scope.ts"
import { type SessionMethod, SignInRepo, type SessionRow } from "./signin/SignInRepo.ts"
import { type NewToken, Users } from "./Users.ts"
import { UsersRepo } from "./UsersRepo.ts"

/**
 * Who a session speaks for: a person and, when an organization's identity provider signed them
 * in, that organization, the only one the session and its tokens reach. A password vouches for
 * the whole account: its session has no organization.
 */
export interface SessionSubject {
  readonly userId: string
  readonly organizationId?: string | undefined
}

/** An open session: its row, and whether its person is an instance administrator (who an unconfined session acts as). */
export interface SignInSession extends SessionSubject {
  /** The stored id: the `bearerHash` of the id the session's token carries, so a dump's ids sign nobody in. */
  readonly id: string
  readonly method: SessionMethod
  readonly createdAt: Date
  readonly lastSeenAt: Date
  readonly expiresAt: Date
  readonly userAgent: string | null
  readonly instanceAdmin: boolean
}

/** What a sign-in method vouched for, and the browser it was done in. */
export interface SessionStart extends SessionSubject {
  readonly method: SessionMethod
  readonly userAgent?: string | undefined
}

/** A session just begun: the token that carries it, valid for `maxAgeSeconds`. */
export interface SessionGrant {
  readonly token: string
  readonly maxAgeSeconds: number
  readonly session: SignInSession
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
  /** Begins (stores) a session for someone a sign-in method vouched for. */
  readonly begin: (start: SessionStart) => Effect.Effect<SessionGrant>
  /** The session `token` carries, when we signed it and it is neither revoked nor expired; records its use. */
  readonly open: (token: string) => Effect.Effect<Option.Option<SignInSession>>
  /** The person's live sessions, newest first. */
  readonly list: (userId: string) => Effect.Effect<ReadonlyArray<SessionRow>>
  /** Revokes one of the person's sessions: NotFound for anyone else's, or one already ended. */
  readonly revoke: (userId: string, sessionId: string) => Effect.Effect<void, Errors.NotFound>
  /**
   * Revokes every live session of the person but `except` (a password change; none: signing out
   * everywhere), and every API token a session of theirs created (`fromSession`): a thief of a
   * session keeps nothing it made. Answers how many sessions.
   */
  readonly revokeOthers: (userId: string, except: string | undefined) => Effect.Effect<number>
  /** Forgets sessions that expired, or were revoked a day ago or more, and ended attempt windows; answers how many sessions. */
  readonly purgeEnded: Effect.Effect<number>
  /** The session's person, as the session sees them. */
  readonly user: (session: SessionSubject) => Effect.Effect<User, Errors.NotFound>
  /** A new API token of the session's person, reaching what the session reaches. */
  readonly createToken: (session: SessionSubject, label: string) => Effect.Effect<NewToken, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput>
  /** Whether the session reaches the organization as one of its enabled members with a role (who read its members' sites). */
  readonly isMember: (session: SessionSubject, organizationId: string) => Effect.Effect<boolean>
  /** The state (SAML's RelayState) that carries a CLI's request through the IdP and back: signed, not secret. */
  readonly sealCliRequest: (request: CliRequest) => Effect.Effect<string, SignInRefused>
  /** After a sign-in whose state is a sealed CLI request, the code to hand its callback; none for any other state. */
  readonly cliHandoff: (session: SignInSession, state: string | undefined) => Effect.Effect<Option.Option<CliHandoff>>
  /** Redeems a CLI's one-time code, with the verifier of its challenge, for a new API token of its session (still live). */
  readonly redeemCliCode: (code: string, verifier: string) => Effect.Effect<CliSignedIn, SignInRefused>
}

/** How long a SAML session lasts (the IdP vouched for the person now, not for long). */
export const sessionSeconds = 8 * 3600
/** How long a password session lasts. */
export const passwordSessionSeconds = 30 * 24 * 3600
/** A session's `lastSeenAt` is written at most once per this interval. */
export const lastSeenPrecision = Duration.minutes(1)
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
const SessionToken = Schema.Struct({ sid: Schema.String })
const CliRequestToken = Schema.Struct({ callback: Schema.String, challenge: Schema.String })
const CliCode = Schema.Struct({ sid: Schema.String, challenge: Schema.String, nonce: Schema.String })

/** A loopback callback of the CLI (`quire login --sso`): http on 127.0.0.1, ::1 or localhost. */
export const isLoopbackCallback = (url: URL) =>
  url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname) && url.port !== ""

/**
 * The caller a session makes: its person, reaching its organization only when it has one, acting
 * through a session (the tokens it creates are `fromSession`).
 */
export const sessionActor = (session: SessionSubject & { readonly instanceAdmin?: boolean }): Actor.ActorShape =>
  session.organizationId === undefined
    ? { userId: session.userId, instanceAdmin: session.instanceAdmin === true, viaSession: true }
    : { userId: session.userId, instanceAdmin: false, scope: session.organizationId, viaSession: true }

/** Whether `verifier` is the one whose S256 challenge is `challenge`, compared in constant time. */
const verifies = (verifier: string, challenge: string) =>
  sameSecret(createHash("sha256").update(verifier).digest("base64url"), challenge)

const refused = (reason: string) => Effect.fail(new SignInRefused({ reason }))

const sessionOf = (row: SessionRow, user: User): SignInSession => ({
  id: row.id,
  userId: row.userId,
  ...(row.organizationId === null ? {} : { organizationId: row.organizationId }),
  method: row.method,
  createdAt: row.createdAt,
  lastSeenAt: row.lastSeenAt,
  expiresAt: row.expiresAt,
  userAgent: row.userAgent,
  instanceAdmin: user.instanceAdmin
})

export class SignInSessions extends Context.Service<SignInSessions, SignInSessionsShape>()("@quire/identity/SignInSessions") {
  /** Keys from the instance secret (`SignedToken.keyFor`); without one, the process's: sessions end with it. */
  static readonly layer = Layer.effect(
    SignInSessions,
    Effect.gen(function*() {
      const users = yield* Users
      const usersRepo = yield* UsersRepo
      const members = yield* MembersRepo
      const store = yield* SamlSignInRepo
      const repo = yield* SignInRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const key = yield* Effect.all({
        session: SignedToken.keyFor("sign-in-session"),
        request: SignedToken.keyFor("sso-cli-relay"),
        code: SignedToken.keyFor("sso-cli-code")
      })
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const begin = Effect.fn("SignInSessions.begin")(function*(start: SessionStart) {
        const createdAt = yield* now
        const maxAgeSeconds = start.method === "password" ? passwordSessionSeconds : sessionSeconds
        // The token carries `sid`; the row keeps only its hash.
        const sid = `${yield* ids.make}.${randomBytes(24).toString("base64url")}`
        const row: SessionRow = {
          id: Sealed.bearerHash(sid),
          userId: start.userId,
          organizationId: start.organizationId ?? null,
          method: start.method,
          createdAt,
          lastSeenAt: createdAt,
          expiresAt: new Date(createdAt.getTime() + maxAgeSeconds * 1000),
          userAgent: start.userAgent === undefined || start.userAgent === "" ? null : start.userAgent.slice(0, 512),
          revokedAt: null
        }
        const person = yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.insertSession(row)
          const person = yield* usersRepo.findById(start.userId)
          // Every sign-in begins a session here, whatever its method: the one place that records it.
          const who = { type: "user" as const, id: start.userId, ...(Option.isSome(person) ? { label: person.value.email } : {}) }
          yield* audit.record({ organizationId: start.organizationId ?? null, action: `auth.${start.method}.signed-in`, actor: who, target: who })
          return person
        }))
        const token = yield* SignedToken.issue(key.session, SessionToken, { sid }, { expiresIn: maxAgeSeconds })
        return { token, maxAgeSeconds, session: sessionOf(row, Option.getOrThrow(person)) }
      })

      /** The live session with this stored id (a hash), and its person. */
      const live = Effect.fnUntraced(function*(sessionId: string) {
        const row = yield* repo.findSession(sessionId)
        const at = yield* now
        if (Option.isNone(row) || row.value.revokedAt !== null || row.value.expiresAt <= at) return Option.none<SignInSession>()
        const person = yield* usersRepo.findById(row.value.userId)
        if (Option.isNone(person)) return Option.none<SignInSession>()
        return Option.some(sessionOf(row.value, person.value))
      })

      const open = Effect.fnUntraced(function*(token: string) {
        const opened = yield* SignedToken.open(key.session, SessionToken, token)
        if (Option.isNone(opened)) return Option.none<SignInSession>()
        const found = yield* live(Sealed.bearerHash(opened.value.value.sid))
        if (Option.isNone(found)) return found
        const at = yield* now
        if (at.getTime() - found.value.lastSeenAt.getTime() >= Duration.toMillis(lastSeenPrecision)) {
          // Bookkeeping: a failure to record it must not fail the request it authenticates.
          yield* repo.touchSession(found.value.id, at, new Date(at.getTime() - Duration.toMillis(lastSeenPrecision))).pipe(
            Effect.catchCause((cause) => Effect.logWarning("Could not record a session's last use", cause))
          )
          return Option.some({ ...found.value, lastSeenAt: at })
        }
        return found
      })

      const list = (userId: string) => Effect.flatMap(now, (at) => repo.listSessions(userId, at))

      const revoke = Effect.fn("SignInSessions.revoke")(function*(userId: string, sessionId: string) {
        if (!(yield* repo.revokeSession(userId, sessionId, yield* now))) {
          return yield* new Errors.NotFound({ resource: "Session", id: sessionId })
        }
        yield* audit.record({ organizationId: null, action: "auth.session.ended", actor: userRef(userId), target: { type: "session", id: sessionId } })
      }, transactor.transaction)

      const purgeEnded = Effect.flatMap(now, (at) => repo.purge(at, new Date(at.getTime() - 24 * 3600 * 1000)))

      const revokeOthers = (userId: string, except: string | undefined) =>
        transactor.transaction(Effect.gen(function*() {
          const revoked = yield* repo.revokeOtherSessions(userId, except, yield* now)
          yield* users.forgetTokens(yield* usersRepo.deleteSessionTokens(userId))
          yield* audit.record({
            organizationId: null,
            action: "auth.sessions.ended",
            actor: userRef(userId),
            target: userRef(userId),
            payload: { sessions: revoked, keptCurrent: except !== undefined }
          })
          return revoked
        }))

      const user = (session: SessionSubject) => users.get(session.userId).pipe(Effect.provideService(Actor.Actor, sessionActor(session)))

      const createToken = (session: SessionSubject, label: string) =>
        users.createToken(session.userId, { label }).pipe(Effect.provideService(Actor.Actor, sessionActor(session)))

      const isMember = (session: SessionSubject, organizationId: string) =>
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
        const code = yield* SignedToken.issue(key.code, CliCode, { sid: session.id, challenge, nonce }, { expiresIn: codeSeconds })
        return Option.some({ callback: new URL(callback), code })
      })

      // The checks run in this order, each with its own answer: the code, the verifier's form,
      // the verifier against the challenge, and only then the code's single use.
      const redeemCliCode = Effect.fn("SignInSessions.redeemCliCode")(function*(code: string, verifier: string) {
        const opened = yield* SignedToken.open(key.code, CliCode, code)
        if (Option.isNone(opened) || opened.value.expiresAt === undefined) return yield* refused("code: invalid or expired sign-in code")
        const { value: { challenge, nonce, sid }, expiresAt } = opened.value
        if (!verifierPattern.test(verifier)) {
          return yield* refused("code_verifier: required, 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'")
        }
        if (!verifies(verifier, challenge)) return yield* refused("code_verifier: does not match the code_challenge the sign-in started with")
        const now = new Date(yield* Clock.currentTimeMillis)
        if (!(yield* store.consumeOnce(`once:${nonce}`, new Date(expiresAt * 1000), now))) {
          return yield* refused("code: this sign-in code was already used")
        }
        const found = yield* live(sid)
        if (Option.isNone(found)) return yield* refused("code: the sign-in this code came from has ended")
        const session = found.value
        const created = yield* Effect.orDie(createToken(session, "quire login --sso"))
        const person = yield* Effect.orDie(user(session))
        return { secret: created.secret, user: person, organizationId: session.organizationId }
      })

      return SignInSessions.of({ begin, open, list, revoke, revokeOthers, purgeEnded, user, createToken, isMember, sealCliRequest, cliHandoff, redeemCliCode })
    })
  )
}
