/**
 * The drag layer's arithmetic, pure: from the pointer's height over a row and the row's box, the
 * drop instruction, with the hitbox rules of pragmatic-drag-and-drop's list-item hitbox
 * (`@atlaskit/pragmatic-drag-and-drop-hitbox/list-item`, which the app does not install):
 * with `combine` available the row splits into a quarter "before", a half "combine" (inside) and a
 * quarter "after"; without it, halves; an operation that is `blocked` keeps its region but the drop
 * is refused (the indicator shows it as blocked); one that is `not-available` gives its region to
 * its neighbours. The React part (`draggable`, `dropTargetForElements`, the indicator) is the
 * shell's; it calls `instructionAt` on drag, then `placementFor` on drop.
 */
import { find, type Placement, refusal, type Tree } from "./tree-model.ts"

export type Operation = "reorder-before" | "reorder-after" | "combine"
export type Availability = "available" | "not-available" | "blocked"

export interface Instruction {
  readonly operation: Operation
  readonly blocked: boolean
}

/** The row's box (`getBoundingClientRect()`'s `top` and `height`) and the pointer's `clientY`. */
export interface RowGeometry {
  readonly top: number
  readonly height: number
}

/** The instruction at height `clientY` over `row`, or null when no operation is offered there. */
export const instructionAt = (
  clientY: number,
  row: RowGeometry,
  operations: Readonly<Record<Operation, Availability>>
): Instruction | null => {
  const offered = (op: Operation) => operations[op] !== "not-available"
  const y = row.height <= 0 ? 0 : Math.min(Math.max((clientY - row.top) / row.height, 0), 1)
  const before = offered("reorder-before")
  const after = offered("reorder-after")
  const combine = offered("combine")
  let operation: Operation | null
  if (combine) {
    const top = before ? 0.25 : 0
    const bottom = after ? 0.75 : 1
    operation = y < top ? "reorder-before" : y >= bottom ? "reorder-after" : "combine"
  } else if (before && after) operation = y < 0.5 ? "reorder-before" : "reorder-after"
  else operation = before ? "reorder-before" : after ? "reorder-after" : null
  return operation === null ? null : { operation, blocked: operations[operation] === "blocked" }
}

/** The operations a row offers to the dragged page: `blocked` where the tree's rules refuse the place. */
export const operationsFor = (tree: Tree, dragged: string, row: string): Record<Operation, Availability> => {
  const moving = find(tree, dragged)
  const target = find(tree, row)
  if (!moving || !target) return { "reorder-before": "not-available", "reorder-after": "not-available", combine: "not-available" }
  const sibling = refusal(tree, moving.page.kind, target.parent?.id ?? null, dragged) === null && !isBelow(tree, row, dragged)
  const inside = target.page.kind === "link" ? "not-available" : refusal(tree, moving.page.kind, row, dragged) === null ? "available" : "blocked"
  return {
    "reorder-before": sibling ? "available" : "blocked",
    "reorder-after": sibling ? "available" : "blocked",
    combine: row === dragged ? "blocked" : inside
  }
}

const isBelow = (tree: Tree, id: string, ancestor: string): boolean => {
  for (let at = find(tree, id)?.parent; at; at = find(tree, at.id)?.parent) if (at.id === ancestor) return true
  return false
}

/**
 * Where page `dragged` goes when dropped with `instruction` on `row`. `expanded`: the row shows its
 * children, so "after" it reads as "first inside it" (as the tree-item hitbox does). Null when blocked.
 */
export const placementFor = (
  tree: Tree,
  dragged: string,
  row: string,
  instruction: Instruction,
  expanded = false
): Placement | null => {
  if (instruction.blocked) return null
  const target = find(tree, row)
  const moving = find(tree, dragged)
  if (!target || !moving) return null
  // Over its own row, before or after is where it already is.
  if (row === dragged) return instruction.operation === "combine" ? null : { parent: target.parent?.id ?? null, at: moving.index }
  if (instruction.operation === "combine" || (instruction.operation === "reorder-after" && expanded && target.page.children.length > 0)) {
    if (refusal(tree, moving.page.kind, row, dragged) !== null) return null
    const others = target.page.children.filter((c) => c.id !== dragged)
    return { parent: row, at: instruction.operation === "combine" ? others.length : 0 }
  }
  const parent = target.parent?.id ?? null
  if (refusal(tree, moving.page.kind, parent, dragged) !== null) return null
  const siblings = (target.parent?.children ?? tree).filter((c) => c.id !== dragged)
  const index = siblings.findIndex((c) => c.id === row)
  return { parent, at: instruction.operation === "reorder-before" ? index : index + 1 }
}

/**
 * The tree-item hitbox's "reparent": dropping below the last row of a parent with the pointer
 * moved left of the row's indentation puts the page after the ancestor at that level instead
 * (`clientX`, the tree's left edge `left` and `indentPerLevel` in pixels). Null when the row is not
 * the last of its parent, or the pointer is not left of its level; then `placementFor` applies.
 */
export const outdentPlacement = (
  tree: Tree,
  dragged: string,
  row: string,
  clientX: number,
  indent: { readonly left: number; readonly indentPerLevel: number }
): Placement | null => {
  const target = find(tree, row)
  const moving = find(tree, dragged)
  if (!target || !moving || target.parent === null) return null
  if (target.index !== target.parent.children.length - 1 || target.page.children.length > 0) return null
  const level = Math.max(0, Math.floor((clientX - indent.left) / Math.max(indent.indentPerLevel, 1)))
  if (level >= target.depth) return null
  // The ancestor of the row at depth `level`: the page goes right after it, among its siblings.
  let ancestor = find(tree, target.parent.id)!
  while (ancestor.depth > level) ancestor = find(tree, ancestor.parent!.id)!
  if (ancestor.page.id === dragged) return null
  const parent = ancestor.parent?.id ?? null
  if (refusal(tree, moving.page.kind, parent, dragged) !== null) return null
  const siblings = (ancestor.parent?.children ?? tree).filter((c) => c.id !== dragged)
  return { parent, at: siblings.findIndex((c) => c.id === ancestor.page.id) + 1 }
}
