/**
 * Port: what an automatic export's commit says about the revision it exports, such as the subject
 * of the change request whose merge wrote it (platform implements it over reviews). Required; a
 * composition without reviews says `CommitMessages.layerNone` (the export's own message, "Update
 * from Quire (revision …)").
 */
import { Context, Effect, Layer, Option } from "effect"

export interface CommitMessagesShape {
  readonly forRevision: (spaceId: string, revisionId: string) => Effect.Effect<Option.Option<string>>
}

export class CommitMessages extends Context.Service<CommitMessages, CommitMessagesShape>()("@quire/gitsync/CommitMessages") {
  static readonly layerNone = Layer.succeed(CommitMessages, CommitMessages.of({ forRevision: () => Effect.succeed(Option.none()) }))
}
