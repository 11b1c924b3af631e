/**
 * The order of a site's sections and of a section's variants, as the API's move operations take
 * it: one item placed just before or just after a sibling (`moveSiteSection`, `moveSiteSpace`).
 * Pure: a keyboard step (up, down) or a drop on a row's top or bottom half gives the one payload,
 * or nothing when the item would not move.
 */

/** Where an item goes: just before or just after a sibling, by id. */
export type Position = { readonly before: string } | { readonly after: string }

/** The order after moving `id` to `position` (unchanged when either is not in the list). */
export const applyMove = (ids: ReadonlyArray<string>, id: string, position: Position): ReadonlyArray<string> => {
  const target = "before" in position ? position.before : position.after
  if (id === target || !ids.includes(id) || !ids.includes(target)) return ids
  const rest = ids.filter((other) => other !== id)
  const at = rest.indexOf(target) + ("before" in position ? 0 : 1)
  return [...rest.slice(0, at), id, ...rest.slice(at)]
}

/** One step up (-1) or down (+1): before the previous sibling, after the next; nothing at either end. */
export const stepPosition = (ids: ReadonlyArray<string>, id: string, step: -1 | 1): Position | undefined => {
  const index = ids.indexOf(id)
  const neighbour = index < 0 ? undefined : ids[index + step]
  if (neighbour === undefined) return undefined
  return step < 0 ? { before: neighbour } : { after: neighbour }
}

/** A drop of `id` on the top or bottom half of `target`'s row; nothing when the order stays. */
export const dropPosition = (ids: ReadonlyArray<string>, id: string, target: string, edge: "top" | "bottom"): Position | undefined => {
  if (id === target || !ids.includes(id) || !ids.includes(target)) return undefined
  const position: Position = edge === "top" ? { before: target } : { after: target }
  const moved = applyMove(ids, id, position)
  return moved.every((other, index) => other === ids[index]) ? undefined : position
}

/** The edge of a row a pointer at `clientY` is nearer to. */
export const edgeOf = (element: Element, clientY: number): "top" | "bottom" => {
  const box = element.getBoundingClientRect()
  return clientY < box.top + box.height / 2 ? "top" : "bottom"
}
