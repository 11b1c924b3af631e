/**
 * Three-way merge of a revision's reusable contents, matched by id: what one side changed since the
 * base (created, renamed, rewritten, deleted) is taken; when both changed the same one, the change
 * request's side (`theirs`) wins, as a whole. Pure; used by merge and by update from main.
 */
import type { ReusableContentNode } from "@quire/content"

const same = (a: ReusableContentNode | undefined, b: ReusableContentNode | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.title === b.title && a.document === b.document && a.git?.path === b.git?.path)

/** `ours` with `theirs`' changes since `base` applied: ours' order, then what theirs created. */
export const mergeReusableContents = (
  base: ReadonlyArray<ReusableContentNode> = [],
  ours: ReadonlyArray<ReusableContentNode> = [],
  theirs: ReadonlyArray<ReusableContentNode> = []
): ReadonlyArray<ReusableContentNode> => {
  const inBase = new Map(base.map((node) => [node.id, node]))
  const inTheirs = new Map(theirs.map((node) => [node.id, node]))
  const inOurs = new Set(ours.map((node) => node.id))
  const kept = ours.flatMap((node) => {
    const before = inBase.get(node.id)
    const their = inTheirs.get(node.id)
    // Untouched by the change request (or created by both alike): ours.
    if (same(before, their) || same(node, their)) return [node]
    // Deleted by the change request.
    if (their === undefined) return before === undefined ? [node] : []
    return [their]
  })
  // Created by the change request, or changed by it where main deleted it.
  const created = theirs.filter((node) => !inOurs.has(node.id) && !same(inBase.get(node.id), node))
  return [...kept, ...created]
}
