/**
 * `quire cr resolve`: settle the conflicts a change request's merge or update found, each by taking
 * main's side, the change request's, or a markdown file for a content hunk. Without a choice it
 * shows the conflicts and how to resolve them.
 */
import { Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { ConflictResolutionInput, MergeConflict } from "@quire/api"
import * as ConflictDiff from "../ConflictDiff.ts"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"

type Conflict = typeof MergeConflict.Type

const describe = (c: Conflict) => `${c.id} (${c.path}: ${c.kind}${c.field === undefined || c.kind === "content" ? "" : ` ${c.field}`})`

/** The choices of the command line, checked against the conflicts: one per conflict, each known. */
export const choose = (
  conflicts: ReadonlyArray<Conflict>,
  given: {
    readonly main: ReadonlyArray<string>
    readonly changeRequest: ReadonlyArray<string>
    readonly markdown: Readonly<Record<string, string>>
    readonly all: Option.Option<"main" | "change-request">
  }
): { readonly ok: true; readonly choices: ReadonlyArray<{ readonly conflict: string; readonly take: "main" | "change-request" | "markdown"; readonly file?: string }> } | {
  readonly ok: false
  readonly message: string
} => {
  const known = new Map(conflicts.map((c) => [c.id, c]))
  const picked = new Map<string, { readonly conflict: string; readonly take: "main" | "change-request" | "markdown"; readonly file?: string }>()
  const entries = [
    ...given.main.map((id) => [id, { conflict: id, take: "main" as const }] as const),
    ...given.changeRequest.map((id) => [id, { conflict: id, take: "change-request" as const }] as const),
    ...Object.entries(given.markdown).map(([id, file]) => [id, { conflict: id, take: "markdown" as const, file }] as const)
  ]
  for (const [id, choice] of entries) {
    const c = known.get(id)
    if (c === undefined) return { ok: false, message: `No conflict ${id} on this change request (its conflicts: ${conflicts.map((x) => x.id).join(", ")})` }
    if (picked.has(id)) return { ok: false, message: `${id} is given more than one resolution` }
    if (choice.take === "markdown" && c.kind !== "content") {
      return { ok: false, message: `--markdown resolves only content conflicts; ${describe(c)} takes --main or --change-request` }
    }
    picked.set(id, choice)
  }
  const missing = conflicts.filter((c) => !picked.has(c.id))
  if (missing.length > 0 && Option.isNone(given.all)) {
    return {
      ok: false,
      message: `Without a resolution: ${missing.map(describe).join(", ")}; every conflict is resolved at once ` +
        "(--main ID, --change-request ID, --markdown ID=FILE.md for each, or --all main|change-request)"
    }
  }
  const side = Option.getOrUndefined(given.all)
  const rest = side === undefined ? [] : missing.map((c) => ({ conflict: c.id, take: side }))
  return { ok: true, choices: conflicts.map((c) => picked.get(c.id) ?? rest.find((r) => r.conflict === c.id)!) }
}

export const resolve = Command.make(
  "resolve",
  {
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space's id")),
    changeRequestId: Argument.String("change-request").pipe(Argument.withDescription("The change request's id, or its number in the space")),
    main: Flag.String("main").pipe(Flag.withDescription("Take main's side of this conflict (its id, e.g. c1); repeatable"), Flag.atLeast(0)),
    changeRequest: Flag.String("change-request").pipe(
      Flag.withDescription("Take the change request's side of this conflict; repeatable"),
      Flag.atLeast(0)
    ),
    markdown: Flag.KeyValuePair("markdown").pipe(
      Flag.withDescription("ID=FILE: the file's markdown replaces the lines of this content conflict; repeatable"),
      Flag.optional
    ),
    all: Flag.Literals("all", ["main", "change-request"]).pipe(
      Flag.withDescription("Take this side of every conflict not named otherwise"),
      Flag.optional
    )
  },
  Effect.fn("quire.cr.resolve")(function*({ all, changeRequest, changeRequestId, main, markdown, spaceId }) {
    const client = yield* QuireClient
    const params = { spaceId, changeRequestId }
    const found = yield* client.changeRequestConflicts.listChangeRequestConflicts({ params })
    if (found.count === 0) {
      return yield* new CliFailure({ message: `Change request ${changeRequestId} has no conflicts to resolve (quire cr merge or quire cr update finds them).` })
    }
    if (found.stale) {
      return yield* new CliFailure({
        message: `The space's content changed since these conflicts were found: run quire cr update ${spaceId} ${changeRequestId} and resolve what it reports.`
      })
    }
    const markdownFiles = Option.getOrElse(markdown, () => ({}))
    if (main.length === 0 && changeRequest.length === 0 && Object.keys(markdownFiles).length === 0 && Option.isNone(all)) {
      const styles = yield* ConflictDiff.styles
      yield* Output.print(found, (list) => ConflictDiff.renderConflicts(list.items, styles))
      return yield* new CliFailure({
        message: `Choose a side for each conflict, e.g. ${ConflictDiff.resolveHint(spaceId, changeRequestId, found.items)} (or --all main|change-request).`
      })
    }
    const chosen = choose(found.items, { main, changeRequest, markdown: markdownFiles, all })
    if (!chosen.ok) return yield* new CliFailure({ message: chosen.message })
    const fs = yield* FileSystem.FileSystem
    const resolutions: Array<ConflictResolutionInput> = []
    for (const choice of chosen.choices) {
      resolutions.push(
        choice.file === undefined
          ? { conflict: choice.conflict, take: choice.take }
          : { conflict: choice.conflict, take: "markdown", markdown: yield* fs.readFileString(choice.file) }
      )
    }
    const cr = yield* client.changeRequestConflicts.resolveChangeRequestConflicts({ params, payload: { resolutions } })
    yield* Output.done(
      `Resolved ${resolutions.length} conflict${resolutions.length === 1 ? "" : "s"} of change request #${cr.number}: ` +
        `it is at revision ${cr.revision}, up to date with the space's content; merge it with quire cr merge ${spaceId} ${cr.number}.`,
      cr
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Resolve the conflicts of a change request (main's side, the change request's, or new markdown) so that it merges cleanly"),
  Command.withExamples([
    { command: "quire cr resolve SPACE_ID 3", description: "Show the conflicts and how to resolve them" },
    { command: "quire cr resolve SPACE_ID 3 --markdown c1=combined.md --main c2", description: "New text for c1, main's side of c2" },
    { command: "quire cr resolve SPACE_ID 3 --all change-request", description: "Keep the change request's side everywhere" }
  ])
)
