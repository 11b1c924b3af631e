/**
 * Git sync's CommitMessages port, answered by the reviews package: a revision written by a change
 * request's merge is exported as a commit titled with the change request's subject.
 */
import { Effect, Layer, Option } from "effect"
import { CommitMessages } from "@quire/gitsync"
import { ChangeRequestsRepo } from "@quire/reviews"

/** The commit message of a merged change request: its subject, then where it came from. */
export const mergeMessage = (cr: { readonly number: number; readonly subject: string }, revisionId: string): string => {
  const subject = cr.subject.trim() === "" ? `Change request #${cr.number}` : cr.subject.trim()
  return `${subject}\n\nMerged change request #${cr.number} in Quire (revision ${revisionId}).\n`
}

export const layer = Layer.effect(
  CommitMessages,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequestsRepo
    return {
      forRevision: (spaceId: string, revisionId: string) =>
        Effect.map(changeRequests.findMergedInto(spaceId, revisionId), Option.map((cr) => mergeMessage(cr, revisionId)))
    }
  })
)
