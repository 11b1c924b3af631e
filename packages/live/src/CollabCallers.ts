/**
 * Port: who a collaboration connection acts for, from what it was opened with (the upgrade's
 * headers and the token the provider sent). How a session or a token travels (the cookie's name,
 * the bearer header) is the server's, which implements this from its session cookie and identity's
 * authentication; live editing asks again at every check of access, so a session signed out or a
 * token revoked ends the connection too.
 */
import { Context, type Effect, type Option } from "effect"
import type { Actor } from "@quire/kernel"

/** The upgrade's headers that identify its sender, kept for the connection's life. */
export interface UpgradeHeaders {
  readonly origin: string | undefined
  readonly cookie: string | undefined
  readonly authorization: string | undefined
}

/** What a document connection was opened with. */
export interface CollabRequest {
  readonly headers: UpgradeHeaders
  /** The token of Hocuspocus's authentication message; empty when the provider sent none. */
  readonly token: string
}

export interface CollabCallersShape {
  /** The actor `request` stands for now: none without a credential, or when its session ended or its token is unknown or revoked. */
  readonly actorOf: (request: CollabRequest) => Effect.Effect<Option.Option<Actor.ActorShape>>
}

export class CollabCallers extends Context.Service<CollabCallers, CollabCallersShape>()("@quire/live/CollabCallers") {}
