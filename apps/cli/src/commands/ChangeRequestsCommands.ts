/**
 * `quire cr`: change requests of a space. Open one, apply markdown files to it (a page's new
 * content, or a new page), look at its pages, and merge it into the space's content.
 */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { type ChangeRequest, type ChangeRequestRequestedReviewer, type ChangeRequestReview, ChangeRequestStatus, MergeBlockers, type MergeConflict } from "@quire/api"
import * as ConflictDiff from "../ConflictDiff.ts"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { apply } from "./CrApplyCommand.ts"
import { resolve } from "./CrResolveCommand.ts"
import { review, reviewers } from "./CrReviewCommand.ts"
import { diff } from "./CrDiffCommand.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))

const changeRequestId = Argument.String("change-request").pipe(
  Argument.withDescription("The change request's id, or its number in the space")
)

const columns: ReadonlyArray<Output.Column<ChangeRequest>> = [
  { header: "#", value: (cr) => String(cr.number) },
  { header: "id", value: (cr) => cr.id },
  { header: "status", value: (cr) => cr.status },
  { header: "subject", value: (cr) => cr.subject },
  { header: "author", value: (cr) => cr.createdBy.displayName },
  { header: "outdated", value: (cr) => Output.yesNo(cr.outdated) },
  { header: "updated", value: (cr) => Output.when(cr.updatedAt) }
]

const showChangeRequest = (cr: ChangeRequest) =>
  Output.details([
    ["id", cr.id],
    ["number", String(cr.number)],
    ["subject", cr.subject],
    ["status", cr.status],
    ["space", cr.space],
    ["author", cr.createdBy.displayName],
    ["revision", cr.revision],
    ["merged revision", cr.revisionMerged],
    ["outdated", Output.yesNo(cr.outdated)],
    ["comments", String(cr.comments)],
    ["created", Output.when(cr.createdAt)],
    ["updated", Output.when(cr.updatedAt)],
    ["url", cr.urls.app]
  ])

const indent = (text: string) => text.split("\n").map((line) => `  ${line}`).join("\n")

/** Each reviewer's reviews (the latest last; `outdated`: of an earlier revision) and who is still asked. */
const showReviews = (reviews: ReadonlyArray<ChangeRequestReview>, requested: ReadonlyArray<ChangeRequestRequestedReviewer>) => {
  const rows = reviews.map((review) => [
    review.reviewer.displayName,
    review.status === "approved" ? "approved" : "changes requested",
    Output.when(review.createdAt),
    review.outdated ? "(of an earlier revision)" : ""
  ])
  const waiting = requested.map((request) => [request.user.displayName, `asked by ${request.requestedBy.displayName}`, Output.when(request.createdAt)])
  return [
    rows.length === 0 ? "reviews: none" : `reviews:\n${indent(Output.rows(rows))}`,
    ...(waiting.length === 0 ? [] : [`waiting for a review:\n${indent(Output.rows(waiting))}`])
  ].join("\n")
}

/** `merge: ready`, or `merge: blocked` with each reason; nothing to say of a merged or archived one beyond its status. */
const showReadiness = (cr: ChangeRequest, blockers: ReadonlyArray<string>) =>
  cr.status === "merged" || cr.status === "archived"
    ? `merge: not possible, it is ${cr.status}`
    : blockers.length === 0
    ? `merge: ready (quire cr merge ${cr.space} ${cr.number})`
    : ["merge: blocked", ...blockers.map((blocker) => `  - ${blocker}`)].join("\n")

const list = Command.make(
  "list",
  {
    spaceId,
    status: Flag.Literals("status", ChangeRequestStatus.literals).pipe(
      Flag.withDescription("Only the change requests with this status (default: open)"),
      Flag.optional
    ),
    ...Pages.flags
  },
  Effect.fn("quire.cr.list")(function*({ limit, pageSize, spaceId, status }) {
    const client = yield* QuireClient
    const found = yield* Pages.collect(
      (query) =>
        client.changeRequests.listChangeRequestsForSpace({
          params: { spaceId },
          query: { ...query, ...Fields.optional("status", status) }
        }),
      { limit, pageSize }
    )
    const which = Option.getOrElse(status, () => "open")
    yield* Output.printList(found, columns, `No ${which} change requests (quire cr open SPACE_ID --subject "...").`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("List the change requests of a space, newest first (open ones unless --status)"),
  Command.withAlias("ls"),
  Command.withExamples([{ command: "quire cr list SPACE_ID --status merged" }])
)

const get = Command.make(
  "get",
  { spaceId, changeRequestId },
  Effect.fn("quire.cr.get")(function*({ changeRequestId, spaceId }) {
    const client = yield* QuireClient
    const cr = yield* client.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId } })
    // --json prints the API's change request as it is; people also see its reviews and what the merge waits for.
    if (yield* GlobalFlags.Json) return yield* Output.print(cr, showChangeRequest)
    const params = { spaceId, changeRequestId: cr.id }
    const [reviews, requested, rules, conflicts] = yield* Effect.all([
      Pages.collect((query) => client.changeRequestReviews.getReviewsByChangeRequestId({ params, query }), { limit: Option.none(), pageSize: 100 }),
      Pages.collect((query) => client.changeRequestReviews.getRequestedReviewersByChangeRequestId({ params, query }), { limit: Option.none(), pageSize: 100 }),
      // Which merge rules block the caller's merge, as the server's merge checks them.
      client.changeRequestReviews.getMergeRulesForChangeRequest({ params }),
      client.changeRequestConflicts.listChangeRequestConflicts({ params })
    ], { concurrency: "unbounded" })
    const blockers = [...MergeBlockers.stateBlockers({ status: cr.status, conflicts: conflicts.count }), ...rules.blockers.map((b) => (b.message.endsWith(".") ? b.message : `${b.message}.`))]
    yield* Output.print(cr, (cr) => [showChangeRequest(cr), showReviews(reviews.items, requested.items), showReadiness(cr, blockers)].join("\n\n"))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show a change request: its details, its reviews and requested reviewers, and whether it can be merged (what the merge waits for); --json prints the API's change request")
)

const open = Command.make(
  "open",
  {
    spaceId,
    subject: Flag.String("subject").pipe(Flag.withDescription("What the change request is about"), Flag.optional)
  },
  Effect.fn("quire.cr.open")(function*({ spaceId, subject }) {
    const client = yield* QuireClient
    const created = yield* client.changeRequests.createChangeRequest({
      params: { spaceId },
      payload: Fields.optional("subject", subject)
    })
    const cr = created.status === "draft"
      ? yield* client.changeRequests.updateChangeRequestById({
        params: { spaceId, changeRequestId: created.id },
        payload: { status: "open" }
      })
      : created
    yield* Output.print(cr, showChangeRequest)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Open a change request on the space's current content"),
  Command.withExamples([{ command: "quire cr open SPACE_ID --subject \"Rewrite the quickstart\"" }])
)

const pages = Command.make(
  "pages",
  { spaceId, changeRequestId },
  Effect.fn("quire.cr.pages")(function*({ changeRequestId, spaceId }) {
    const client = yield* QuireClient
    const tree = yield* client.changeRequestContent.listPagesInChangeRequest({
      params: { spaceId, changeRequestId },
      query: {}
    })
    yield* Output.print(tree, ({ pages }) =>
      pages.length === 0 ? "No pages in this change request." : Output.table(Content.pageColumns, Content.flatten(pages), Output.terminalWidth))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("The page tree of a change request: path, title, kind and id")
)

/**
 * Prints a merge's or an update's answer; conflicts are shown as diffs (coloured on a terminal),
 * then fail the command (exit status 1) with how to resolve them.
 */
const settle = Effect.fnUntraced(function*(
  answer: { readonly revision: string; readonly result: string; readonly conflicts?: ReadonlyArray<typeof MergeConflict.Type> },
  where: { readonly spaceId: string; readonly changeRequestId: string },
  success: string,
  refused: string,
  again: string
) {
  if (answer.result !== "conflicts") return yield* Output.done(success, answer)
  const conflicts = answer.conflicts ?? []
  const styles = yield* ConflictDiff.styles
  yield* Output.print(answer, () => ConflictDiff.renderConflicts(conflicts, styles))
  const count = `${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}`
  return yield* new CliFailure({
    message: `${refused} (${count}${(yield* GlobalFlags.Json) ? "" : " above"}); resolve them ` +
      `(${ConflictDiff.resolveHint(where.spaceId, where.changeRequestId, conflicts)}, see quire cr resolve --help) and ${again}`
  })
})

const merge = Command.make(
  "merge",
  { spaceId, changeRequestId },
  Effect.fn("quire.cr.merge")(function*({ changeRequestId, spaceId }) {
    const client = yield* QuireClient
    const answer = yield* client.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId } })
    yield* settle(
      answer,
      { spaceId, changeRequestId },
      `Merged change request ${changeRequestId}: the space is at revision ${answer.revision}.`,
      "Not merged: the change request conflicts with the space's content",
      "merge again"
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Merge a change request into the space's content; on conflicts, show them and change nothing")
)

const update = Command.make(
  "update",
  { spaceId, changeRequestId },
  Effect.fn("quire.cr.update")(function*({ changeRequestId, spaceId }) {
    const client = yield* QuireClient
    const answer = yield* client.changeRequests.updateChangeRequest({ params: { spaceId, changeRequestId } })
    yield* settle(
      answer,
      { spaceId, changeRequestId },
      `Updated change request ${changeRequestId} with the space's content: it is at revision ${answer.revision}.`,
      "Not updated: the space's content conflicts with the change request",
      "merge"
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Bring the space's current content into a change request; on conflicts, show them (quire cr resolve settles them)")
)

const archive = Command.make(
  "archive",
  { spaceId, changeRequestId },
  Effect.fn("quire.cr.archive")(function*({ changeRequestId, spaceId }) {
    const client = yield* QuireClient
    const cr = yield* client.changeRequests.updateChangeRequestById({
      params: { spaceId, changeRequestId },
      payload: { status: "archived" }
    })
    yield* Output.print(cr, showChangeRequest)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Archive a change request (close it without merging)")
)

/** `quire cr ...` */
export const cr = Command.make("cr").pipe(
  Command.withDescription("Change requests of a space: open, edit with markdown files, merge"),
  Command.withSubcommands([list, get, open, apply, pages, diff, merge, update, resolve, review, reviewers, archive])
)
