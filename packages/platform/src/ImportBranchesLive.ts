/**
 * Content's ImportBranches port, answered by the reviews package: an import into a change request
 * (one given, or one it opens) writes the change request's branch as an edit of whoever started it.
 */
import { Effect, Layer } from "effect"
import { ImportBranches, SpaceContent } from "@quire/content"
import { ChangeRequests } from "@quire/reviews"

export const layer = Layer.effect(
  ImportBranches,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const content = yield* SpaceContent
    return ImportBranches.of({
      open: (spaceId, subject) => Effect.map(changeRequests.create(spaceId, { subject }), (view) => view.changeRequest.id),
      head: (spaceId, changeRequestId) =>
        changeRequests.branchHead(spaceId, changeRequestId, "imported into").read.pipe(
          Effect.flatMap((head) => Effect.orDie(content.revisionById(head.revisionId)))
        ),
      commit: (spaceId, changeRequestId, build, within) => changeRequests.commit(spaceId, changeRequestId, build, within)
    })
  })
)
