/**
 * `quire comments`: the discussion of a space or of a change request (`--cr`): list, post (on a
 * page, by id or path), reply, resolve and reopen.
 */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Comment, CommentReply } from "@quire/api"
import * as Content from "../Content.ts"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))
const commentId = Argument.String("comment-id").pipe(Argument.withDescription("The comment's id"))
const text = Argument.String("text").pipe(Argument.withDescription("The comment, in markdown"))

/** A body's first line, shortened for a table. */
const excerpt = (markdown: string) => {
  const line = markdown.trim().split("\n")[0] ?? ""
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

const columns: ReadonlyArray<Output.Column<Comment>> = [
  { header: "id", value: (comment) => comment.id },
  { header: "status", value: (comment) => comment.status },
  { header: "author", value: (comment) => comment.postedBy.displayName },
  { header: "page", value: (comment) => comment.target.page?.path ?? "" },
  { header: "replies", value: (comment) => String(comment.replies) },
  { header: "posted", value: (comment) => Output.when(comment.postedAt) },
  { header: "comment", value: (comment) => excerpt(comment.body.markdown) }
]

const showComment = (comment: Comment) =>
  Output.details([
    ["id", comment.id],
    ["status", comment.status],
    ["author", comment.postedBy.displayName],
    ["page", comment.target.page?.path],
    ["change request", comment.target.changeRequest],
    ["posted", Output.when(comment.postedAt)],
    ["resolved", comment.resolvedBy === undefined ? undefined : `${Output.when(comment.resolvedAt)} by ${comment.resolvedBy.displayName}`],
    ["replies", String(comment.replies)],
    ["comment", comment.body.markdown]
  ])

const showReply = (reply: CommentReply) =>
  Output.details([
    ["id", reply.id],
    ["author", reply.postedBy.displayName],
    ["posted", Output.when(reply.postedAt)],
    ["reply", reply.body.markdown]
  ])

const list = Command.make(
  "list",
  {
    spaceId,
    changeRequest: Content.changeRequestFlag,
    status: Flag.Literals("status", ["open", "resolved", "all"]).pipe(
      Flag.withDescription("Only the comments with this status (default: open)"),
      Flag.withDefault("open")
    ),
    page: Flag.String("page").pipe(Flag.withDescription("Only the comments on this page (its id or path)"), Flag.optional),
    ...Pages.flags
  },
  Effect.fn("quire.comments.list")(function*({ changeRequest, limit, page, pageSize, spaceId, status }) {
    const client = yield* QuireClient
    const targetPage = Option.isNone(page)
      ? Option.none<string>()
      : Option.some((yield* Content.requirePage(yield* Content.tree(spaceId, changeRequest), page.value, Content.where(changeRequest))).id)
    const filter = { status, order: "asc" as const, ...Fields.optional("targetPage", targetPage) }
    const comments = yield* Pages.collect(
      (query) =>
        Option.isNone(changeRequest)
          ? client.comments.listCommentsInSpace({ params: { spaceId }, query: { ...filter, ...query } })
          : client.changeRequestComments.listCommentsInChangeRequest({
            params: { spaceId, changeRequestId: changeRequest.value },
            query: { ...filter, ...query }
          }),
      { limit, pageSize }
    )
    yield* Output.printList(comments, columns, `No ${status === "all" ? "" : `${status} `}comments in ${Content.where(changeRequest)}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("The comments of a space (or of a change request with --cr), oldest first"),
  Command.withAlias("ls")
)

const post = Command.make(
  "post",
  {
    spaceId,
    text,
    changeRequest: Content.changeRequestFlag,
    page: Flag.String("page").pipe(Flag.withDescription("The page the comment is about (its id or path)"), Flag.optional)
  },
  Effect.fn("quire.comments.post")(function*({ changeRequest, page, spaceId, text }) {
    const client = yield* QuireClient
    const pageId = Option.isNone(page)
      ? Option.none<string>()
      : Option.some((yield* Content.requirePage(yield* Content.tree(spaceId, changeRequest), page.value, Content.where(changeRequest))).id)
    const payload = { body: { markdown: text }, ...Fields.optional("page", pageId) }
    const comment = Option.isNone(changeRequest)
      ? yield* client.comments.postCommentInSpace({ params: { spaceId }, payload })
      : yield* client.changeRequestComments.postCommentInChangeRequest({
        params: { spaceId, changeRequestId: changeRequest.value },
        payload
      })
    yield* Output.print(comment, showComment)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Post a comment on a space or a change request (--cr), optionally about a page (--page)"),
  Command.withExamples([{ command: "quire comments post SPACE_ID \"Is this still true?\" --cr 3 --page guides/install" }])
)

const reply = Command.make(
  "reply",
  { spaceId, commentId, text, changeRequest: Content.changeRequestFlag },
  Effect.fn("quire.comments.reply")(function*({ changeRequest, commentId, spaceId, text }) {
    const client = yield* QuireClient
    const payload = { body: { markdown: text } }
    const answer = Option.isNone(changeRequest)
      ? yield* client.comments.postCommentReplyInSpace({ params: { spaceId, commentId }, payload })
      : yield* client.changeRequestComments.postCommentReplyInChangeRequest({
        params: { spaceId, changeRequestId: changeRequest.value, commentId },
        query: {},
        payload
      })
    yield* Output.print(answer, showReply)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Reply to a comment")
)

const resolve = Command.make(
  "resolve",
  {
    spaceId,
    commentId,
    changeRequest: Content.changeRequestFlag,
    reopen: Flag.Boolean("reopen").pipe(Flag.withDescription("Reopen a resolved comment instead"), Flag.withDefault(false))
  },
  Effect.fn("quire.comments.resolve")(function*({ changeRequest, commentId, reopen, spaceId }) {
    const client = yield* QuireClient
    const payload = { resolved: !reopen }
    const comment = Option.isNone(changeRequest)
      ? yield* client.comments.updateCommentInSpace({ params: { spaceId, commentId }, payload })
      : yield* client.changeRequestComments.updateCommentInChangeRequest({
        params: { spaceId, changeRequestId: changeRequest.value, commentId },
        payload
      })
    yield* Output.done(`${reopen ? "Reopened" : "Resolved"} comment ${comment.id}.`, comment)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Resolve a comment (--reopen: open it again)")
)

/** `quire comments ...` */
export const comments = Command.make("comments").pipe(
  Command.withDescription("Comments on a space or a change request: list, post, reply, resolve"),
  Command.withSubcommands([list, post, reply, resolve])
)
