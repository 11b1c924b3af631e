/**
 * What one revision changed of another's reusable contents, as GitBook's semantic changes:
 * created, edited (title or document) and deleted, matched by id. Pure; part of RevisionChanges.
 */
import type { AttributeChange } from "./AttributeChange.ts"
import type { ReusableContentNode } from "./domain/Revision.ts"

/** A reusable content as a change names it (GitBook's `ChangedRevisionReusableContent`). */
export interface ChangedReusableContent {
  readonly id: string
  readonly title: string
  readonly document?: string | undefined
}

export type ReusableContentChange =
  | { readonly type: "reusable_content_created"; readonly reusableContent: ChangedReusableContent }
  | {
    readonly type: "reusable_content_edited"
    readonly reusableContent: ChangedReusableContent
    readonly attributes: { readonly title?: AttributeChange<string>; readonly document?: AttributeChange<string> }
  }
  | { readonly type: "reusable_content_deleted"; readonly reusableContent: ChangedReusableContent }

const named = (node: ReusableContentNode): ChangedReusableContent => ({
  id: node.id,
  title: node.title,
  ...(node.document === undefined ? {} : { document: node.document })
})

const attribute = (before: string | undefined, after: string | undefined): AttributeChange<string> | undefined =>
  before === after ? undefined : { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) }

/** The changes from `before` to `after`: created and edited in `after`'s order, then deleted in `before`'s. */
export const compareReusableContents = (
  before: ReadonlyArray<ReusableContentNode> = [],
  after: ReadonlyArray<ReusableContentNode> = []
): ReadonlyArray<ReusableContentChange> => {
  const old = new Map(before.map((node) => [node.id, node]))
  const kept = new Set(after.map((node) => node.id))
  const changes: Array<ReusableContentChange> = []
  for (const node of after) {
    const previous = old.get(node.id)
    if (previous === undefined) {
      changes.push({ type: "reusable_content_created", reusableContent: named(node) })
      continue
    }
    const title = attribute(previous.title, node.title)
    const document = attribute(previous.document, node.document)
    if (title === undefined && document === undefined) continue
    changes.push({
      type: "reusable_content_edited",
      reusableContent: named(node),
      attributes: { ...(title === undefined ? {} : { title }), ...(document === undefined ? {} : { document }) }
    })
  }
  for (const node of before) if (!kept.has(node.id)) changes.push({ type: "reusable_content_deleted", reusableContent: named(node) })
  return changes
}
