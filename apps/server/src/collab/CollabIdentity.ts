/**
 * Live editing's CollabCallers on identity's own authentication: the browser app's session
 * cookie when the upgrade comes from our own origin, else an API token (the provider's token, or
 * `Authorization: Bearer` on the upgrade). Also what the socket reads of an upgrade's headers, and
 * whether its origin may connect at all.
 */
import { Effect, Layer, Option } from "effect"
import { Cookies } from "effect/http"
import type { IncomingHttpHeaders } from "node:http"
import { sessionActor, SignInSessions, Users } from "@quire/identity"
import { CollabCallers, type CollabRequest, type UpgradeHeaders } from "@quire/live/CollabCallers"
import { PublicUrl } from "../PublicUrl.ts"
import * as SessionCookie from "../SessionCookie.ts"

type Credential = { readonly kind: "session" | "token"; readonly secret: string }

export const upgradeHeaders = (headers: IncomingHttpHeaders): UpgradeHeaders => ({
  origin: headers.origin,
  cookie: headers.cookie,
  authorization: headers.authorization
})

/** Whether an upgrade may proceed: a browser's `Origin` must be ours; a client without one (not a browser) must use a token. */
export const originAllowed = (headers: UpgradeHeaders, ownOrigin: string): boolean =>
  headers.origin === undefined || headers.origin === ownOrigin

/** The credential of a connection: the session cookie from our own origin first, else the provider's token, else the bearer header. */
const credentialOf = ({ headers, token }: CollabRequest, ownOrigin: string): Option.Option<Credential> => {
  const session = headers.cookie === undefined ? undefined : Cookies.parseHeader(headers.cookie)[SessionCookie.name]
  if (session !== undefined && session !== "" && headers.origin === ownOrigin) return Option.some({ kind: "session", secret: session })
  if (token !== "") return Option.some({ kind: "token", secret: token })
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "")
  return bearer === null ? Option.none() : Option.some({ kind: "token", secret: bearer[1]! })
}

/** Who a connection is, on this server's origin (PublicUrl), sessions and API tokens. */
export const layer = Layer.effect(
  CollabCallers,
  Effect.gen(function*() {
    const ownOrigin = new URL((yield* PublicUrl).base).origin
    const sessions = yield* SignInSessions
    const users = yield* Users
    return CollabCallers.of({
      actorOf: (request) => {
        const credential = credentialOf(request, ownOrigin)
        if (Option.isNone(credential)) return Effect.succeedNone
        const { kind, secret } = credential.value
        return kind === "session"
          ? Effect.map(sessions.open(secret), Option.map(sessionActor))
          : Effect.map(users.caller(secret), Option.map((caller) => caller.actor))
      }
    })
  })
)
