/**
 * Port: the change requests an import may write into instead of a space's main content. Change
 * requests are the reviews package's; the server implements this port with them, and a composition
 * without them uses `layerNone`, which refuses every import into a change request.
 */
import { Context, Effect, Layer } from "effect"
import { type Actor, Errors } from "@quire/kernel"
import type { Revision } from "./domain/Revision.ts"
import type { ContentChange } from "./RevisionWriter.ts"

type Refused = Errors.NotFound | Errors.Forbidden | Errors.InvalidInput

export class ImportBranches extends Context.Service<ImportBranches, {
  /** Opens a new draft change request in the space for an import (the caller's edit rights); answers its id. */
  readonly open: (spaceId: string, subject: string) => Effect.Effect<string, Refused, Actor.Actor>
  /** The head revision of a change request of the space the caller may edit (merged and archived ones refuse). */
  readonly head: (spaceId: string, changeRequestId: string) => Effect.Effect<Revision, Refused, Actor.Actor>
  /** One write of the change request's branch, as an edit of the caller's; `within` runs inside its transaction. */
  readonly commit: <E, R>(
    spaceId: string,
    changeRequestId: string,
    build: (parent: Revision) => Effect.Effect<ContentChange, E, R>,
    within?: Effect.Effect<void, E, R>
  ) => Effect.Effect<Revision, E | Refused | Errors.Conflict, R | Actor.Actor>
}>()("@quire/content/ImportBranches") {
  /** No change requests: an import into one is refused, naming `target.changeRequest`. */
  static readonly layerNone = Layer.succeed(ImportBranches, ImportBranches.of({
    open: () => Effect.fail(none),
    head: () => Effect.fail(none),
    commit: () => Effect.fail(none)
  }))
}

const none = new Errors.InvalidInput({ field: "target.changeRequest", reason: "This server does not import into change requests" })
