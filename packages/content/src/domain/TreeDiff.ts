/**
 * What a write changed in a page tree, found without visiting what it kept: builders reuse their
 * parent's nodes, so a subtree that is the same object at the same path is skipped whole.
 */
import type { PageNode } from "./Revision.ts"

/** A page of both trees (same id, same place among the same siblings) whose own fields or path differ. */
export interface ChangedPage {
  readonly before: PageNode
  readonly after: PageNode
  readonly beforePath: string
  readonly path: string
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === "object" && a !== null && typeof b === "object" && b !== null && JSON.stringify(a) === JSON.stringify(b))

/** Whether two pages' own fields (all but `pages`) are equal. */
const sameOwnFields = (a: PageNode, b: PageNode): boolean => {
  const left: Record<string, unknown> = { ...a, pages: undefined }
  const right: Record<string, unknown> = { ...b, pages: undefined }
  const keys = Object.keys(left).filter((key) => left[key] !== undefined)
  return keys.length === Object.keys(right).filter((key) => right[key] !== undefined).length && keys.every((key) => sameValue(left[key], right[key]))
}

const join = (base: string, slug: string) => (base === "" ? slug : `${base}/${slug}`)

/**
 * The pages whose own fields or path changed from `before` to `after`, depth first, when both
 * trees have the same shape (the same ids in the same places); undefined when a page was added,
 * removed or moved among or across its siblings, and the caller compares the whole trees.
 */
export const sameShapeChanges = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): ReadonlyArray<ChangedPage> | undefined => {
  const changed: Array<ChangedPage> = []
  const walk = (b: ReadonlyArray<PageNode>, a: ReadonlyArray<PageNode>, beforeBase: string, base: string): boolean => {
    if (b === a && beforeBase === base) return true
    if (b.length !== a.length) return false
    for (let i = 0; i < a.length; i++) {
      const old = b[i]!
      const page = a[i]!
      if (old.id !== page.id) return false
      if (old === page && beforeBase === base) continue
      const beforePath = join(beforeBase, old.slug)
      const path = join(base, page.slug)
      if (beforePath !== path || !sameOwnFields(old, page)) changed.push({ before: old, after: page, beforePath, path })
      if (!walk(old.pages, page.pages, beforePath, path)) return false
    }
    return true
  }
  return walk(before, after, "", "") ? changed : undefined
}
