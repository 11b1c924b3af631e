/**
 * The presence document of a change request (`<changeRequestId>/~presence`, docs/web.md "Live
 * editing"): everyone who has the change request open joins it on the socket of their page's
 * document and publishes, in Hocuspocus's awareness, their name, colour and the page they are on.
 * Anyone who may read the change request may join; it holds no page, is never loaded from or
 * stored to the database, and refuses document updates (its connections are read-only). What a
 * client sends in awareness, here and on a page's document (carets), is limited in size and rate,
 * and says who it is from as the server knows them (`ownEntries`), whatever the client claimed.
 */
import { Effect } from "effect"
import { Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { Refused } from "./CollabDocuments.ts"

/** Who a connection's person is to the others: what the server writes into each of its awareness entries. */
export interface Person {
  readonly id: string
  readonly name: string
}

/** The person `actor` is, by their display name now (their id when they have no user record). */
export const personOf = (actor: Actor.ActorShape): Effect.Effect<Person, never, Users> =>
  Effect.flatMap(Effect.service(Users), (users) => users.current).pipe(
    Effect.map((user): Person => ({ id: actor.userId, name: user.displayName })),
    Effect.catchTag("NotFound", () => Effect.succeed<Person>({ id: actor.userId, name: actor.userId })),
    Effect.provideService(Actor.Actor, actor)
  )

/**
 * Rewrites, in place, the awareness entries one connection sent (Hocuspocus's decoded `states`,
 * by Yjs client id) so that each is from `person`: its `user.id` and `user.name` are theirs,
 * whatever the client claimed, and only the caret colour it chose (`colour`, `color`) is kept. An
 * entry for a client id that another connection publishes is dropped: no one speaks for another.
 */
export const ownEntries = (states: Map<number, Record<string, unknown>>, person: Person, publishedElsewhere: (clientId: number) => boolean): void => {
  for (const [clientId, state] of Array.from(states)) {
    if (publishedElsewhere(clientId)) {
      states.delete(clientId)
      continue
    }
    const claimed = state["user"]
    const chosen = typeof claimed === "object" && claimed !== null ? claimed as Record<string, unknown> : {}
    state["user"] = {
      ...(typeof chosen["colour"] === "number" ? { colour: chosen["colour"] } : {}),
      ...(typeof chosen["color"] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(chosen["color"]) ? { color: chosen["color"] } : {}),
      id: person.id,
      name: person.name
    }
  }
}

/** What a presence connection carries: who it acts for, in which change request, its awareness rate window. */
export interface PresenceState {
  actor: Actor.ActorShape
  readonly changeRequestId: string
}

export interface AwarenessLimits {
  /** Bytes of one awareness message (a person's name, colour, page or caret). */
  readonly maxAwarenessBytes: number
  /** Awareness messages one connection may send in a second. */
  readonly maxAwarenessPerSecond: number
}

export const refusal = {
  awarenessTooLarge: (max: number) => `awareness-too-large: what one shares of oneself (name, caret, page) may be at most ${max} bytes`,
  awarenessRateLimited: (max: number) => `rate-limited: more than ${max} caret or presence messages a second; reconnect to continue`
} as const

/** Hocuspocus's message type of an awareness update. */
const awarenessType = 1

/** Reads a lib0 unsigned integer at `offset`: its value and the offset after it (none past the end). */
const readVarUint = (bytes: Uint8Array, offset: number): readonly [number, number] | undefined => {
  let value = 0
  let shift = 1
  for (let at = offset; at < bytes.length && at < offset + 8; at++) {
    const byte = bytes[at]!
    value += (byte & 127) * shift
    if (byte < 128) return [value, at + 1]
    shift *= 128
  }
  return undefined
}

/** Whether a raw message (`<document name><type>…`) is an awareness update. */
const isAwareness = (message: Uint8Array): boolean => {
  const name = readVarUint(message, 0)
  if (name === undefined) return false
  const type = readVarUint(message, name[1] + name[0])
  return type !== undefined && type[0] === awarenessType
}

/** A connection's one-second window of awareness messages. */
export interface AwarenessWindow {
  start: number
  count: number
}

/**
 * The refusal of a client's awareness message over the limits (none when it passes, or is not
 * one): checked before Hocuspocus decodes and relays it to everyone in the document.
 */
export const checkAwareness = (message: Uint8Array, window: AwarenessWindow, limits: AwarenessLimits, now: number): Refused | undefined => {
  if (!isAwareness(message)) return undefined
  if (message.length > limits.maxAwarenessBytes) return new Refused(refusal.awarenessTooLarge(limits.maxAwarenessBytes))
  if (now - window.start >= 1000) {
    window.start = now
    window.count = 0
  }
  window.count += 1
  return window.count > limits.maxAwarenessPerSecond ? new Refused(refusal.awarenessRateLimited(limits.maxAwarenessPerSecond)) : undefined
}
