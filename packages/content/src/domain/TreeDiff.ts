/**
 * What a write changed in a page tree, found without visiting what it kept: a write's tree first
 * shares its parent's nodes where they are equal (`sharePages`), so a subtree that is the same
 * object at the same path is skipped whole.
 */
import type { PageNode } from "./Revision.ts"

/** A page of both trees (same id, same place among the same siblings) whose own fields or path differ. */
export interface ChangedPage {
  readonly before: PageNode
  readonly after: PageNode
  readonly beforePath: string
  readonly path: string
}

/** A value JSON writes as itself: a string, a finite number, a boolean, null. */
const isPlain = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))

/** An object literal's kind of object: for `in` then walks its own keys, in the order JSON writes them. */
const isRecord = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)` for two records whose values are all plain (a page's
 * `git`, a file's reference), without making the strings: the same keys in the same order (undefined
 * ones left out, as JSON leaves them) with the same values. `undefined` for values it cannot tell
 * that way (nested values, arrays, class instances, `toJSON`).
 */
const sameFlatRecord = (a: object, b: object): boolean | undefined => {
  if (!isRecord(a) || !isRecord(b) || "toJSON" in a || "toJSON" in b) return undefined
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys: Array<string> = []
  for (const key in left) {
    const value = left[key]
    if (value === undefined) continue
    if (!isPlain(value)) return undefined
    keys.push(key)
  }
  let i = 0
  for (const key in right) {
    const value = right[key]
    if (value === undefined) continue
    if (!isPlain(value)) return undefined
    if (keys[i] !== key || left[key] !== value) return false
    i++
  }
  return i === keys.length
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === "object" && a !== null && typeof b === "object" && b !== null &&
    (sameFlatRecord(a, b) ?? JSON.stringify(a) === JSON.stringify(b)))

/** Whether two records' fields other than `skip` are equal (an undefined field is the same as an absent one). */
const sameFields = (a: object, b: object, skip?: string): boolean => {
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  let fields = 0
  for (const key in left) {
    if (key === skip || left[key] === undefined) continue
    if (!sameValue(left[key], right[key])) return false
    fields++
  }
  for (const key in right) if (key !== skip && right[key] !== undefined) fields--
  return fields === 0
}

/** Whether two pages' own fields (all but `pages`) are equal. */
const sameOwnFields = (a: PageNode, b: PageNode): boolean => sameFields(a, b, "pages")

const join = (base: string, slug: string) => (base === "" ? slug : `${base}/${slug}`)

/** A page and its path in a tree. */
export interface PlacedPage {
  readonly page: PageNode
  readonly path: string
}

/** What a write did to a page tree, when it only inserted, removed and changed pages (see `treeChanges`). */
export interface TreeChanges {
  /** The pages of both trees whose own fields or path differ, in `after`'s depth-first order. */
  readonly changed: ReadonlyArray<ChangedPage>
  /** The pages only `after` has (with their subpages), in its depth-first order. */
  readonly added: ReadonlyArray<PlacedPage>
  /** The pages only `before` has (with their subpages), in its depth-first order. */
  readonly removed: ReadonlyArray<PlacedPage>
  /** The pages of both trees that gained their first subpage or lost their last one. */
  readonly leaves: ReadonlyArray<PageNode>
  /** The lists of subpages of `after` (the top level included) where a page was added or changed its slug. */
  readonly lists: ReadonlyArray<ReadonlyArray<PageNode>>
}

const placedSubtree = (page: PageNode, path: string, out: Array<PlacedPage>) => {
  out.push({ page, path })
  for (const child of page.pages) placedSubtree(child, join(path, child.slug), out)
}

/**
 * What changed from `before` to `after` when every page of both trees kept its parent and its order
 * among the pages of both (pages inserted, removed or edited, none moved); undefined when a page
 * moved, and the caller compares the whole trees. Subtrees that are the same object at the same path
 * are skipped whole, so the cost follows what the write touched, not the size of the trees.
 */
export const treeChanges = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): TreeChanges | undefined => {
  const changed: Array<ChangedPage> = []
  const added: Array<PlacedPage> = []
  const removed: Array<PlacedPage> = []
  const leaves: Array<PageNode> = []
  const lists: Array<ReadonlyArray<PageNode>> = []
  const pair = (old: PageNode, page: PageNode, beforeBase: string, base: string): boolean => {
    const beforePath = join(beforeBase, old.slug)
    const path = join(base, page.slug)
    if (beforePath !== path || !sameOwnFields(old, page)) changed.push({ before: old, after: page, beforePath, path })
    if ((old.pages.length === 0) !== (page.pages.length === 0)) leaves.push(page)
    return walk(old.pages, page.pages, beforePath, path)
  }
  const walk = (b: ReadonlyArray<PageNode>, a: ReadonlyArray<PageNode>, beforeBase: string, base: string): boolean => {
    if (b === a && beforeBase === base) return true
    let positions: Map<string, number> | undefined
    let next = 0
    let touched = false
    for (const page of a) {
      const old = b[next]
      if (old === page && beforeBase === base) {
        next++
        continue
      }
      if (old?.id === page.id) {
        next++
        touched ||= old.slug !== page.slug
        if (!pair(old, page, beforeBase, base)) return false
        continue
      }
      positions ??= new Map(b.map((p, i) => [p.id, i]))
      const at = positions.get(page.id)
      if (at === undefined) {
        placedSubtree(page, join(base, page.slug), added)
        touched = true
        continue
      }
      // A page of both lists before one already matched: the order changed.
      if (at < next) return false
      for (; next < at; next++) placedSubtree(b[next]!, join(beforeBase, b[next]!.slug), removed)
      next++
      touched ||= b[at]!.slug !== page.slug
      if (!pair(b[at]!, page, beforeBase, base)) return false
    }
    for (; next < b.length; next++) placedSubtree(b[next]!, join(beforeBase, b[next]!.slug), removed)
    if (touched) lists.push(a)
    return true
  }
  if (!walk(before, after, "", "")) return undefined
  // A page removed in one place and added in another moved.
  if (added.length > 0 && removed.length > 0) {
    const gone = new Set(removed.map(({ page }) => page.id))
    if (added.some(({ page }) => gone.has(page.id))) return undefined
  }
  return { changed, added, removed, leaves, lists }
}

/**
 * The pages whose own fields or path changed from `before` to `after`, depth first, when both
 * trees have the same shape (the same ids in the same places); undefined when a page was added,
 * removed or moved among or across its siblings, and the caller compares the whole trees.
 */
export const sameShapeChanges = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): ReadonlyArray<ChangedPage> | undefined => {
  const changes = treeChanges(before, after)
  return changes === undefined || changes.added.length > 0 || changes.removed.length > 0 ? undefined : changes.changed
}

/** `node`, or `old` when equal to it (own fields and children), else `node` over the children `share` kept. */
const shareNode = (old: PageNode, node: PageNode): PageNode => {
  if (old === node) return old
  const pages = sharePages(old.pages, node.pages)
  if (pages === old.pages && sameOwnFields(old, node)) return old
  return pages === node.pages ? node : { ...node, pages }
}

/**
 * The tree `after` with every page equal to the page of the same id among the same place's
 * siblings in `before` (its own fields and its whole subtree) replaced by that page of `before`,
 * and `before` itself when the trees are equal. Builders that copy every node (a change set, a Git
 * import) thus give back a tree whose unchanged subtrees are their parent's: what reads the two
 * trees (the diff, the parts, the sizes) skips them by identity.
 */
export const sharePages = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> => {
  if (before === after) return before
  let byId: Map<string, PageNode> | undefined
  let out: Array<PageNode> | undefined
  let same = before.length === after.length
  for (let i = 0; i < after.length; i++) {
    const node = after[i]!
    let old = before[i]
    // A page the builder kept is its parent's: the most common case, and the cheapest to tell.
    if (old === node) continue
    if (old === undefined || old.id !== node.id) {
      byId ??= new Map(before.map((page) => [page.id, page]))
      old = byId.get(node.id)
    }
    const shared = old === undefined ? node : shareNode(old, node)
    if (shared !== before[i]) same = false
    if (shared !== node) {
      out ??= after.slice()
      out[i] = shared
    }
  }
  return same ? before : out ?? after
}

/** The file list `after` with each file equal to its parent's of the same id replaced by it, and `before` itself when equal. */
export const shareFiles = <F extends { readonly id: string }>(before: ReadonlyArray<F>, after: ReadonlyArray<F>): ReadonlyArray<F> => {
  if (before === after) return before
  const byId = new Map(before.map((file) => [file.id, file]))
  let same = before.length === after.length
  const out = after.map((file, i) => {
    const old = byId.get(file.id)
    const shared = old !== undefined && (old === file || sameFields(old, file)) ? old : file
    if (shared !== before[i]) same = false
    return shared
  })
  return same ? before : out
}
