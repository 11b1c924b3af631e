/**
 * Port: what an automatic export's commit says about the revision it exports, such as the subject
 * of the change request whose merge wrote it (platform implements it over reviews). None: the
 * export's own message ("Update from Quire (revision …)").
 */
import { Context, Effect, Option } from "effect"

export interface CommitMessagesShape {
  readonly forRevision: (spaceId: string, revisionId: string) => Effect.Effect<Option.Option<string>>
}

export const CommitMessages = Context.Reference<CommitMessagesShape>("@quire/gitsync/CommitMessages", {
  defaultValue: () => ({ forRevision: () => Effect.succeed(Option.none()) })
})
