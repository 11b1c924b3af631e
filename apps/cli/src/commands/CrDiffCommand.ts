/**
 * `quire cr diff`: what a change request changed against the content it was made from: pages
 * added, edited (which attributes), moved and deleted, files, variables, then the unified diff of
 * each edited page's markdown, coloured on a terminal. `--json` prints the API's answer.
 */
import { Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { RevisionSemanticChange, RevisionSemanticChanges } from "@quire/api"
import * as ConflictDiff from "../ConflictDiff.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"

/** The most changes one answer holds (the API's bound on `limit`). */
const maxChanges = 1000

const named = (page: { readonly title: string; readonly path?: string | undefined }) =>
  page.path === undefined ? page.title : `${page.path} (${page.title})`

/** Where a moved page was or went: under a parent page, or at the top level. */
const where = (parent: { readonly title: string; readonly path?: string | undefined } | undefined) =>
  parent === undefined ? "the top level" : parent.path ?? parent.title

/** One line per change: a mark, what changed, and for edits which attributes. */
const summaryLine = (change: RevisionSemanticChange, s: ConflictDiff.Styles): string => {
  switch (change.type) {
    case "page_created":
      return s.added(`+ page     ${named(change.page)}`)
    case "page_deleted":
      return s.removed(`- page     ${named(change.page)}`)
    case "page_edited":
      return `~ page     ${named(change.page)}  ${s.dim(`[${Object.keys(change.attributes).join(", ")}]`)}`
    case "page_moved":
      return `> page     ${named(change.page)}  ${s.dim(`from ${where(change.parent.before)} to ${where(change.parent.after)}`)}`
    case "file_created":
      return s.added(`+ file     ${change.file.name}`)
    case "file_deleted":
      return s.removed(`- file     ${change.file.name}`)
    case "file_edited":
      return `~ file     ${change.file.name}  ${s.dim(`[${Object.keys(change.attributes).join(", ")}]`)}`
    case "reusable_content_created":
      return s.added(`+ reusable ${change.reusableContent.title}`)
    case "reusable_content_deleted":
      return s.removed(`- reusable ${change.reusableContent.title}`)
    case "reusable_content_edited":
      return `~ reusable ${change.reusableContent.title}  ${s.dim(`[${Object.keys(change.attributes).join(", ")}]`)}`
    case "variables_edited":
      return `~ variables  ${s.dim(`[${Object.keys(change.variables).join(", ")}]`)}`
  }
}

/** A unified diff with its headers bold, removed lines red and added lines green. */
export const colorDiff = (diff: string, s: ConflictDiff.Styles): string =>
  diff
    .replace(/\n$/, "")
    .split("\n")
    .map((line) =>
      line.startsWith("---") || line.startsWith("+++")
        ? s.heading(line)
        : line.startsWith("@@")
        ? s.dim(line)
        : line.startsWith("-")
        ? s.removed(line)
        : line.startsWith("+")
        ? s.added(line)
        : line
    )
    .join("\n")

/** The changes for people: the list, then each edited page's diff. */
export const renderChanges = (answer: RevisionSemanticChanges, s: ConflictDiff.Styles): string => {
  if (answer.changes.length === 0) return "No changes."
  const diffs = answer.changes.flatMap((change) => (change.type === "page_edited" && change.diff !== undefined && change.diff !== "" ? [change.diff] : []))
  return [
    s.heading(`${answer.changes.length} change${answer.changes.length === 1 ? "" : "s"}:`),
    ...answer.changes.map((change) => `  ${summaryLine(change, s)}`),
    ...(answer.more === undefined ? [] : [s.dim(`  ... and ${answer.more} more`)]),
    ...diffs.map((diff) => `\n${colorDiff(diff, s)}`)
  ].join("\n")
}

export const diff = Command.make(
  "diff",
  {
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space's id")),
    changeRequestId: Argument.String("change-request").pipe(Argument.withDescription("The change request's id, or its number in the space")),
    limit: Flag.Int("limit").pipe(
      Flag.withDescription(`At most this many changes, 1 to ${maxChanges} (default ${maxChanges})`),
      Flag.filter((n) => n >= 1 && n <= maxChanges, (n) => `--limit must be between 1 and ${maxChanges}, got ${n}`),
      Flag.withDefault(maxChanges)
    )
  },
  Effect.fn("quire.cr.diff")(function*({ changeRequestId, limit, spaceId }) {
    const client = yield* QuireClient
    const answer = yield* client.changeRequestChanges.getChangeRequestChanges({
      params: { spaceId, changeRequestId },
      query: { limit, diff: true }
    })
    const styles = yield* ConflictDiff.styles
    yield* Output.print(answer, (value) => renderChanges(value, styles))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show what a change request changed: pages added, edited, moved and deleted, files, and a line diff of each edited page"),
  Command.withExamples([
    { command: "quire cr diff SPACE_ID 3", description: "The changes of change request #3, with diffs" },
    { command: "quire cr diff SPACE_ID 3 --json", description: "The API's answer (getChangeRequestChanges with diff=true)" }
  ])
)
