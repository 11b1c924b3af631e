/** Use cases that say what a revision changed: RevisionChanges' list, with line diffs of edited documents when asked. */
import { Effect } from "effect"
import type { Revision } from "../domain/Revision.ts"
import { compare, lineDiff } from "../RevisionChanges.ts"
import type { ChangesOptions } from "./SpaceContentTypes.ts"
import type { ContentEdit } from "./ContentEdit.ts"

export const changeLists = (edit: ContentEdit) => {
  const { revisions, revisionById } = edit

  const changes = Effect.fn("SpaceContent.changes")(function*(before: Revision | undefined, after: Revision, options: ChangesOptions) {
    const all = compare(before ?? { pages: [], files: [], variables: {} }, after)
    const shown = all.slice(0, options.limit)
    const more = all.length - shown.length
    if (!options.diff) return { changes: shown, more }
    const edited = shown.flatMap((change) =>
      change.type === "page_edited" && change.attributes.document !== undefined ? [change.attributes.document] : []
    )
    const hashes = [...new Set(edited.flatMap((document) => [document.before, document.after].filter((h) => h !== undefined)))]
    const markdown = hashes.length === 0 ? new Map<string, string>() : yield* revisions.documents(hashes)
    const textOf = (hash: string | undefined) => (hash === undefined ? "" : markdown.get(hash) ?? "")
    return {
      changes: shown.map((change) => {
        if (change.type !== "page_edited" || change.attributes.document === undefined) return change
        const diff = lineDiff(change.pathBefore, change.page.path, textOf(change.attributes.document.before), textOf(change.attributes.document.after))
        return diff === undefined ? change : { ...change, diff }
      }),
      more
    }
  })

  const revisionChanges = Effect.fn("SpaceContent.revisionChanges")(function*(revision: Revision, options: ChangesOptions) {
    const parent = revision.parents[0]
    return yield* changes(parent === undefined ? undefined : yield* revisionById(parent).pipe(Effect.orDie), revision, options)
  })

  return { changes, revisionChanges }
}
