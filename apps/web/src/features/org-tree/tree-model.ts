/**
 * The organization's spaces and collections as a tree, and moves within it, pure (no React, no
 * API): the tree built from the API's flat lists (each item naming its `parent` collection, in
 * the API's order), where a drop or a "Move to…" choice may go (never a collection into itself or
 * below itself, never inside a space), and the one `moveSpace` / `moveCollection` payload a move
 * sends.
 */

export type ItemKind = "space" | "collection"

/** An item as the API lists it. */
export interface FlatItem {
  readonly kind: ItemKind
  readonly id: string
  readonly title: string
  readonly emoji?: string | undefined
  readonly parent?: string | undefined
  /** Whether the person administers it, so may rename it, change its emoji and move it (absent: offered). */
  readonly manage?: boolean | undefined
}

export interface TreeNode extends FlatItem {
  readonly children: ReadonlyArray<TreeNode>
}

/** Where an item goes: before or after a sibling, or at the end of a collection (null: the root). */
export type DropTarget =
  | { readonly type: "before" | "after"; readonly id: string }
  | { readonly type: "inside"; readonly parent: string | null }

type Pointer = { readonly type: "space"; readonly space: string } | { readonly type: "collection"; readonly collection: string }

/** The body of `moveSpace` / `moveCollection`. */
export interface MovePayload {
  readonly parent: string | null
  readonly position?: { readonly before?: Pointer; readonly after?: Pointer }
}

/**
 * The tree of `items`: collections first, then spaces, each in the order given. An item whose
 * parent is missing (not visible to the caller) sits at the root.
 */
export const buildTree = (items: ReadonlyArray<FlatItem>): ReadonlyArray<TreeNode> => {
  const collections = new Set(items.filter((item) => item.kind === "collection").map((item) => item.id))
  const byParent = new Map<string | null, Array<FlatItem>>()
  for (const item of items) {
    const parent = item.parent !== undefined && collections.has(item.parent) && item.parent !== item.id ? item.parent : null
    byParent.set(parent, [...(byParent.get(parent) ?? []), item])
  }
  const seen = new Set<string>()
  const build = (parent: string | null): ReadonlyArray<TreeNode> => {
    const children = (byParent.get(parent) ?? []).filter((item) => !seen.has(item.id))
    children.forEach((item) => seen.add(item.id))
    const ordered = [...children.filter((item) => item.kind === "collection"), ...children.filter((item) => item.kind === "space")]
    return ordered.map((item) => ({ ...item, children: item.kind === "collection" ? build(item.id) : [] }))
  }
  return build(null)
}

/** Every node, depth first, with its depth and parent. */
export const flatten = (tree: ReadonlyArray<TreeNode>): ReadonlyArray<{ node: TreeNode; depth: number; parent: string | null }> => {
  const out: Array<{ node: TreeNode; depth: number; parent: string | null }> = []
  const walk = (nodes: ReadonlyArray<TreeNode>, depth: number, parent: string | null) => {
    for (const node of nodes) {
      out.push({ node, depth, parent })
      walk(node.children, depth + 1, node.id)
    }
  }
  walk(tree, 0, null)
  return out
}

export const findNode = (tree: ReadonlyArray<TreeNode>, id: string) => flatten(tree).find((entry) => entry.node.id === id)

/** The ids of `id` and everything below it. */
export const subtreeIds = (tree: ReadonlyArray<TreeNode>, id: string): ReadonlySet<string> => {
  const found = findNode(tree, id)
  return new Set(found === undefined ? [] : flatten([found.node]).map((entry) => entry.node.id))
}

const pointer = (node: FlatItem): Pointer =>
  node.kind === "space" ? { type: "space", space: node.id } : { type: "collection", collection: node.id }

/**
 * The payload moving `id` to `target`, or a reason it cannot go there (in plain words). A move to
 * where the item already is answers `unchanged`.
 */
export const moveOperation = (
  tree: ReadonlyArray<TreeNode>,
  id: string,
  target: DropTarget
): { readonly payload: MovePayload } | { readonly refused: string } | { readonly unchanged: true } => {
  const moving = findNode(tree, id)
  if (moving === undefined) return { refused: "That item is no longer here" }
  const below = subtreeIds(tree, id)
  if (target.type === "inside") {
    if (target.parent !== null) {
      const parent = findNode(tree, target.parent)
      if (parent === undefined || parent.node.kind !== "collection") return { refused: "Only a collection can hold items" }
      if (below.has(target.parent)) return { refused: "A collection cannot move into itself" }
    }
    if (moving.parent === target.parent) {
      const siblings = target.parent === null ? tree : findNode(tree, target.parent)!.node.children
      if (siblings.at(-1)?.id === id) return { unchanged: true }
    }
    return { payload: { parent: target.parent } }
  }
  if (target.id === id) return { unchanged: true }
  const sibling = findNode(tree, target.id)
  if (sibling === undefined) return { refused: "That place is no longer here" }
  if (sibling.parent !== null && below.has(sibling.parent)) return { refused: "A collection cannot move into itself" }
  if (sibling.node.kind !== moving.node.kind) {
    // Collections are listed before spaces: beside an item of the other kind means at the start or end of that group.
    return { payload: { parent: sibling.parent } }
  }
  const siblings = sibling.parent === null ? tree : findNode(tree, sibling.parent)!.node.children
  const index = siblings.findIndex((node) => node.id === target.id)
  const neighbour = siblings[target.type === "before" ? index - 1 : index + 1]
  if (moving.parent === sibling.parent && neighbour?.id === id) return { unchanged: true }
  return { payload: { parent: sibling.parent, position: { [target.type]: pointer(sibling.node) } } }
}

/** The tree after a move (what the API answers once it is done; shown at once). */
export const applyMove = (tree: ReadonlyArray<TreeNode>, id: string, payload: MovePayload): ReadonlyArray<TreeNode> => {
  const flat = flatten(tree).map((entry) => ({ ...entry.node, parent: entry.parent ?? undefined }))
  const moving = flat.find((item) => item.id === id)
  if (moving === undefined) return tree
  const rest = flat.filter((item) => item.id !== id)
  const moved = { ...moving, parent: payload.parent ?? undefined }
  const anchor = payload.position?.before ?? payload.position?.after
  const anchorId = anchor === undefined ? undefined : anchor.type === "space" ? anchor.space : anchor.collection
  let at = rest.length
  if (anchorId !== undefined) {
    const index = rest.findIndex((item) => item.id === anchorId)
    if (index !== -1) at = payload.position?.before !== undefined ? index : index + 1
  }
  return buildTree([...rest.slice(0, at), moved, ...rest.slice(at)].map((item): FlatItem => ({ kind: item.kind, id: item.id, title: item.title, emoji: item.emoji, parent: item.parent })))
}

/** Where "Move to…" may send `id`: the root and every collection outside its own subtree. */
export const moveDestinations = (tree: ReadonlyArray<TreeNode>, id: string): ReadonlyArray<{ id: string | null; title: string; depth: number }> => {
  const below = subtreeIds(tree, id)
  const current = findNode(tree, id)?.parent
  return [
    { id: null, title: "Top level", depth: 0 },
    ...flatten(tree)
      .filter((entry) => entry.node.kind === "collection" && !below.has(entry.node.id))
      .map((entry) => ({ id: entry.node.id, title: entry.node.title, depth: entry.depth + 1 }))
  ].filter((destination) => destination.id !== current)
}
