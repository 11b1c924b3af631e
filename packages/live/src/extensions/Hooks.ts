/**
 * What live editing's collaboration-server extensions share: how a hook runs an effect (a defect
 * becomes a refusal in words, logged), and what each connection carries in Hocuspocus's context.
 */
import { Context, Effect, Result } from "effect"
import { type ConnectionState, refusal, Refused } from "../CollabDocuments.ts"
import type { AwarenessWindow, Person, PresenceState } from "../CollabPresence.ts"

/**
 * What each document connection carries in Hocuspocus's context that these extensions read
 * (Authentication sets it, with what the connection was opened with).
 */
export interface LiveContext {
  readonly collab?: ConnectionState
  /** Set instead of `collab` on a change request's presence document. */
  readonly presence?: PresenceState
  /** This connection's awareness messages in the current second. */
  readonly awareness?: AwarenessWindow
  /** Who this connection's person is: the server writes it into each awareness entry it sends. */
  readonly person?: Person
}

/** Runs `effect` for a hook in `context`: its refusal rejects with it, a defect is logged and refused with `fallback`. */
export const runner = <R>(context: Context.Context<R>) =>
  <A>(effect: Effect.Effect<A, Refused, R>, fallback: string = refusal.unavailable): Promise<A> =>
    Effect.runPromiseWith(context)(effect.pipe(
      Effect.catchDefect((defect) => Effect.andThen(Effect.logError("Live editing failed", defect), Effect.fail(new Refused(fallback)))),
      Effect.result
    )).then((result) => (Result.isSuccess(result) ? result.success : Promise.reject(result.failure)))

export type Run<R> = ReturnType<typeof runner<R>>

/** Shared between the extensions and the server's own stop: once stopping, nothing more is stored or retried. */
export interface ServerState {
  stopping: boolean
}
