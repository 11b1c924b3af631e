/**
 * Who a collaboration connection acts for, with identity's own authentication: the browser
 * app's session cookie when the upgrade comes from our own origin, else an API token (the
 * provider's token, or `Authorization: Bearer` on the upgrade). The credential is kept, so the
 * connection is authenticated again whenever its access is checked again: a session signed out
 * or a token revoked ends it too.
 */
import { Effect, Option } from "effect"
import { Cookies } from "effect/http"
import type { IncomingHttpHeaders } from "node:http"
import { sessionActor, SignInSessions, Users } from "@quire/identity"
import type { Actor } from "@quire/kernel"
import * as SessionCookie from "../SessionCookie.ts"

export type Credential = { readonly kind: "session" | "token"; readonly secret: string }

/** The upgrade's headers that identify its sender, kept for the connection's life. */
export interface UpgradeHeaders {
  readonly origin: string | undefined
  readonly cookie: string | undefined
  readonly authorization: string | undefined
}

export const upgradeHeaders = (headers: IncomingHttpHeaders): UpgradeHeaders => ({
  origin: headers.origin,
  cookie: headers.cookie,
  authorization: headers.authorization
})

/** Whether an upgrade may proceed: a browser's `Origin` must be ours; a client without one (not a browser) must use a token. */
export const originAllowed = (headers: UpgradeHeaders, ownOrigin: string): boolean =>
  headers.origin === undefined || headers.origin === ownOrigin

/** The credential of a connection: the session cookie from our own origin first, else the provider's token, else the bearer header. */
export const credentialOf = (headers: UpgradeHeaders, token: string, ownOrigin: string): Option.Option<Credential> => {
  const session = headers.cookie === undefined ? undefined : Cookies.parseHeader(headers.cookie)[SessionCookie.name]
  if (session !== undefined && session !== "" && headers.origin === ownOrigin) return Option.some({ kind: "session", secret: session })
  if (token !== "") return Option.some({ kind: "token", secret: token })
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "")
  return bearer === null ? Option.none() : Option.some({ kind: "token", secret: bearer[1]! })
}

/** The actor a credential stands for now: none when the session ended or the token is unknown or revoked. */
export const actorOf = (credential: Credential): Effect.Effect<Option.Option<Actor.ActorShape>, never, SignInSessions | Users> =>
  credential.kind === "session"
    ? Effect.map(Effect.flatMap(Effect.service(SignInSessions), (sessions) => sessions.open(credential.secret)), Option.map(sessionActor))
    : Effect.map(Effect.flatMap(Effect.service(Users), (users) => users.caller(credential.secret)), Option.map((caller) => caller.actor))
