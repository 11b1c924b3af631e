/**
 * Edits written against an older revision (`updateChangeRequestContent`'s `baseRevision`): a page
 * that changed in the change request since is merged three-way with what the writer sent, never
 * overwritten; edits that overlap refuse the batch with the conflicting lines shown.
 */
import { flattenPages, type PageNode, type Revision } from "@quire/content"
import { splitFrontmatter } from "@quire/markdown"
import { type Change, metadataOf } from "../ChangeSet.ts"
import { mergeText } from "../ThreeWayMerge.ts"

/** A page that both sides changed in overlapping ways: what the refusal shows. */
export interface BaseConflict {
  readonly pageId: string
  readonly title: string
  /** `title`, `description` or `document`. */
  readonly field: string
  /** For a document: each overlapping stretch as the change request has it and as the writer sent it. */
  readonly hunks: ReadonlyArray<{ readonly ours: string; readonly theirs: string }>
}

/** A scalar merged three-way: the side that changed it wins; both changed differently is a conflict. */
const mergeValue = <A>(base: A, ours: A, theirs: A): { readonly value: A } | undefined =>
  theirs === base || theirs === ours ? { value: ours } : ours === base ? { value: theirs } : undefined

/**
 * `changes` with each `update_page` of a page that changed between `base` and `current` (the
 * change request's head) merged three-way: the writer's markdown, title and description against
 * the page as it was in `base` and as it is now. `markdownOf` has the documents of both pages.
 */
export const mergeOntoCurrent = (
  changes: ReadonlyArray<Change>,
  base: Revision,
  current: Revision,
  markdownOf: ReadonlyMap<string, string>
): { readonly changes: ReadonlyArray<Change>; readonly conflicts: ReadonlyArray<BaseConflict> } => {
  const before = new Map(flattenPages(base.pages).map(({ page }) => [page.id, page]))
  const now = new Map(flattenPages(current.pages).map(({ page }) => [page.id, page]))
  const conflicts: Array<BaseConflict> = []
  const merged = changes.map((change): Change => {
    if (change.operation !== "update_page") return change
    const was = before.get(change.page)
    const is = now.get(change.page)
    // A page the change request left as it was in `base`: the writer's edit applies as sent.
    if (was === undefined || is === undefined) return change
    if (was.document === is.document && was.title === is.title && was.description === is.description) return change
    const meta = metadataOf(change, change.markdown)
    const conflict = (field: string, hunks: BaseConflict["hunks"] = []) => conflicts.push({ pageId: is.id, title: is.title, field, hunks })
    const title = meta.title === undefined ? undefined : mergeValue(was.title, is.title, meta.title)
    if (title === undefined && meta.title !== undefined) conflict("title", [{ ours: is.title, theirs: meta.title }])
    const description = meta.description === undefined ? undefined : mergeValue(was.description ?? "", is.description ?? "", meta.description)
    if (description === undefined && meta.description !== undefined) conflict("description", [{ ours: is.description ?? "", theirs: meta.description }])
    let markdown = meta.body
    if (meta.body !== undefined && was.document !== is.document) {
      const text = mergeText(documentOf(was, markdownOf), documentOf(is, markdownOf), meta.body)
      // The frontmatter the writer sent (icon, cover, layout, other keys) still sets the page's fields.
      if (text.ok) markdown = splitFrontmatter(change.markdown ?? "").block + text.text
      else conflict("document", text.hunks.map(({ ours, theirs }) => ({ ours, theirs })))
    }
    return {
      ...change,
      ...(title === undefined ? {} : { title: title.value }),
      ...(description === undefined ? {} : { description: description.value }),
      ...(markdown === undefined ? {} : { markdown })
    }
  })
  return { changes: merged, conflicts }
}

const documentOf = (page: PageNode, markdownOf: ReadonlyMap<string, string>) =>
  page.document === undefined ? "" : markdownOf.get(page.document) ?? ""

/** The documents `mergeOntoCurrent` reads: those of the updated pages, in `base` and now. */
export const documentsToMerge = (changes: ReadonlyArray<Change>, base: Revision, current: Revision): ReadonlyArray<string> => {
  const updated = new Set(changes.flatMap((change) => change.operation === "update_page" && change.markdown !== undefined ? [change.page] : []))
  return [...flattenPages(base.pages), ...flattenPages(current.pages)].flatMap(({ page }) =>
    updated.has(page.id) && page.document !== undefined ? [page.document] : [])
}

/** The refusal's message: each conflict with its lines, as diff3 shows them. */
export const describeConflicts = (conflicts: ReadonlyArray<BaseConflict>, baseRevision: string): string =>
  [
    `The change request changed since revision ${baseRevision}, where these edits started, and both changed the same lines; nothing was applied:`,
    ...conflicts.flatMap((c) => [
      `page ${JSON.stringify(c.title)} (${c.pageId}), ${c.field}:`,
      ...c.hunks.flatMap((hunk) => ["<<<<<<< change request", hunk.ours, "=======", hunk.theirs, ">>>>>>> yours"])
    ])
  ].join("\n")
