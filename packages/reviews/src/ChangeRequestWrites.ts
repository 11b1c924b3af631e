/**
 * Who hears that a change request's branch moved: every write to its content (an API batch, `cr
 * apply`, a website import, an update from main, a conflict resolved, live editing's own write
 * back), and every change of its status (merged, archived, reopened), announced after the write's
 * transaction committed. Live editing's collaboration server listens, to bring a write from
 * elsewhere into the shared documents open on the change request, and to close at once those of a
 * page deleted or a change request no longer open to edits.
 * One hub per process; other processes hear of writes through the server (docs/web.md).
 */
import { Context, Effect, Layer, PubSub, type Scope } from "effect"
import type { ChangeRequestStatus } from "./domain/ChangeRequest.ts"

/** A write to a change request's branch, as announced after it committed. */
export interface ChangeRequestWrite {
  readonly spaceId: string
  readonly changeRequestId: string
  /** The shared document (`<changeRequestId>/<pageId>`) whose markdown this write saved, when live editing wrote it. */
  readonly live?: string | undefined
  /** The status the change request moved to, when this announces a change of status rather than of content. */
  readonly status?: ChangeRequestStatus | undefined
}

export interface ChangeRequestWritesShape {
  /** Announces a committed write; never fails, never waits for listeners. */
  readonly written: (write: ChangeRequestWrite) => Effect.Effect<void>
  /** The writes announced from now on, while the scope lasts. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<ChangeRequestWrite>, never, Scope.Scope>
}

export class ChangeRequestWrites extends Context.Service<ChangeRequestWrites, ChangeRequestWritesShape>()("@quire/reviews/ChangeRequestWrites") {
  static readonly layer = Layer.effect(
    ChangeRequestWrites,
    Effect.map(PubSub.unbounded<ChangeRequestWrite>(), (hub) =>
      ChangeRequestWrites.of({
        written: (write) => Effect.asVoid(PubSub.publish(hub, write)),
        subscribe: PubSub.subscribe(hub)
      }))
  )
}
