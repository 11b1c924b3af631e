/**
 * `quire cr review`: approve a change request or ask for changes (with a comment), or list its
 * reviews; `quire cr reviewers`: ask people for a review, withdraw requests, list who is asked.
 */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { ChangeRequestRequestedReviewer, ChangeRequestReview } from "@quire/api"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))
const changeRequestId = Argument.String("change-request").pipe(
  Argument.withDescription("The change request's id, or its number in the space")
)

const reviewColumns: ReadonlyArray<Output.Column<ChangeRequestReview>> = [
  { header: "id", value: (r) => r.id },
  { header: "reviewer", value: (r) => r.reviewer.displayName },
  { header: "status", value: (r) => r.status },
  { header: "outdated", value: (r) => Output.yesNo(r.outdated) },
  { header: "comment", value: (r) => r.comment?.body.markdown.split("\n")[0] ?? "" },
  { header: "when", value: (r) => Output.when(r.createdAt) }
]

const requestColumns: ReadonlyArray<Output.Column<ChangeRequestRequestedReviewer>> = [
  { header: "user", value: (r) => r.user.id },
  { header: "name", value: (r) => r.user.displayName },
  { header: "requested by", value: (r) => r.requestedBy.displayName },
  { header: "when", value: (r) => Output.when(r.createdAt) }
]

export const review = Command.make(
  "review",
  {
    spaceId,
    changeRequestId,
    approve: Flag.Boolean("approve").pipe(Flag.withDescription("Approve the change request's latest revision"), Flag.withDefault(false)),
    requestChanges: Flag.Boolean("request-changes").pipe(Flag.withDescription("Ask for changes before it merges"), Flag.withDefault(false)),
    comment: Flag.String("comment").pipe(Flag.withDescription("Markdown posted on the change request with the review"), Flag.optional)
  },
  Effect.fn("quire.cr.review")(function*({ approve, changeRequestId, comment, requestChanges, spaceId }) {
    const client = yield* QuireClient
    const params = { spaceId, changeRequestId }
    if (approve && requestChanges) {
      return yield* new CliFailure({ message: "Give --approve or --request-changes, not both." })
    }
    if (!approve && !requestChanges) {
      if (Option.isSome(comment)) {
        return yield* new CliFailure({ message: "A review approves (--approve) or asks for changes (--request-changes); a plain remark is a comment (quire comments)." })
      }
      const listed = yield* client.changeRequestReviews.getReviewsByChangeRequestId({ params, query: {} })
      return yield* Output.printList(
        listed,
        reviewColumns,
        `No reviews of change request ${changeRequestId} yet (quire cr review ${spaceId} ${changeRequestId} --approve).`
      )
    }
    const submitted = yield* client.changeRequestReviews.submitChangeRequestReview({
      params,
      payload: {
        status: approve ? "approved" : "changes-requested",
        ...(Option.isSome(comment) ? { comment: { markdown: comment.value } } : {})
      }
    })
    yield* Output.done(
      approve
        ? `Approved change request ${changeRequestId} at revision ${submitted.revision}.`
        : `Requested changes on change request ${changeRequestId} (revision ${submitted.revision}).`,
      submitted
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Approve a change request or request changes (with --comment); without either, list its reviews"),
  Command.withExamples([
    { command: "quire cr review SPACE_ID 3 --approve", description: "Approve change request #3" },
    { command: "quire cr review SPACE_ID 3 --request-changes --comment \"The intro needs an example\"" },
    { command: "quire cr review SPACE_ID 3", description: "List its reviews" }
  ])
)

export const reviewers = Command.make(
  "reviewers",
  {
    spaceId,
    changeRequestId,
    add: Flag.String("add").pipe(Flag.withDescription("Ask this user (their id) for a review; repeatable"), Flag.atLeast(0)),
    remove: Flag.String("remove").pipe(Flag.withDescription("Withdraw this user's review request; repeatable"), Flag.atLeast(0))
  },
  Effect.fn("quire.cr.reviewers")(function*({ add, changeRequestId, remove, spaceId }) {
    const client = yield* QuireClient
    const params = { spaceId, changeRequestId }
    if (add.length > 0) {
      yield* client.changeRequestReviews.requestReviewersForChangeRequest({ params, payload: { users: add } })
    }
    for (const userId of remove) {
      yield* client.changeRequestReviews.removeRequestedReviewerFromChangeRequest({ params: { ...params, userId } })
    }
    const listed = yield* client.changeRequestReviews.getRequestedReviewersByChangeRequestId({ params, query: {} })
    yield* Output.printList(
      listed,
      requestColumns,
      `Nobody is asked to review change request ${changeRequestId} (quire cr reviewers ${spaceId} ${changeRequestId} --add USER_ID).`
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List who is asked to review a change request; --add asks more people, --remove withdraws a request"),
  Command.withExamples([{ command: "quire cr reviewers SPACE_ID 3 --add USER_ID --remove OTHER_USER_ID" }])
)
