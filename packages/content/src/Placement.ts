/**
 * Order of spaces and collections among their siblings: numeric positions, new records at the end,
 * moves to the midpoint of their neighbours.
 */
import { Context, Effect, Layer } from "effect"
import { Errors, Pagination } from "@quire/kernel"

/** A sibling a position may point at. */
export type ContentPointer =
  | { readonly type: "space"; readonly space: string }
  | { readonly type: "collection"; readonly collection: string }

/** Where to place a record among its new siblings: just before or just after one of them. */
export interface ContentPosition {
  readonly before?: ContentPointer | undefined
  readonly after?: ContentPointer | undefined
}

export interface Sibling {
  readonly type: "space" | "collection"
  readonly id: string
  readonly position: number
  readonly createdAt: Date
}

export interface Placement {
  /** The mover's new position. */
  readonly position: number
  /** Its index among the siblings (which exclude it). */
  readonly index: number
  /** Siblings whose position must change to make room. */
  readonly renumbered: ReadonlyArray<Sibling>
}

const gap = 1024

/**
 * Positions after everything created so far, for content created at `now` (milliseconds):
 * strictly increasing, so that records created in the same millisecond keep their creation order
 * (a thousand per millisecond before it runs ahead of the clock).
 */
export const makeEndPositions = (): ((now: number) => number) => {
  let lastEnd = Number.NEGATIVE_INFINITY
  return (now) => {
    lastEnd = Math.max(now, lastEnd + 0.001)
    return lastEnd
  }
}

/** The end positions of one server's content, shared by its spaces and collections (siblings of each other). */
export class EndPositions extends Context.Service<EndPositions, { readonly next: (now: number) => number }>()(
  "@quire/content/EndPositions"
) {
  static readonly layer = Layer.sync(EndPositions, () => ({ next: makeEndPositions() }))
}

const keyOf = (s: Sibling): Pagination.CursorKey => [s.position, s.createdAt.toISOString(), s.id]

export const sortSiblings = (siblings: ReadonlyArray<Sibling>): ReadonlyArray<Sibling> =>
  siblings.toSorted((a, b) => Pagination.compareKeys(keyOf(a), keyOf(b)))

const pointerId = (pointer: ContentPointer): string => (pointer.type === "space" ? pointer.space : pointer.collection)

/**
 * The place of `mover` among `siblings` (sorted, without the mover) for `position`, or at the end
 * (no earlier than `end`, by `endPosition`) when there is none. A pointer at the mover itself or at
 * something that is not a sibling is an InvalidInput on `position`.
 */
export const place = (
  mover: { readonly type: "space" | "collection"; readonly id: string },
  siblings: ReadonlyArray<Sibling>,
  position: ContentPosition | undefined,
  end: number,
  endPosition: (now: number) => number
): Effect.Effect<Placement, Errors.InvalidInput> =>
  Effect.suspend(() => {
    const last = siblings.at(-1)
    if (position === undefined || (position.before === undefined && position.after === undefined)) {
      return Effect.succeed({
        position: endPosition(last === undefined ? end : Math.max(end, last.position + 1)),
        index: siblings.length,
        renumbered: []
      })
    }
    if (position.before !== undefined && position.after !== undefined) {
      return Effect.fail(new Errors.InvalidInput({ field: "position", reason: "give either before or after, not both" }))
    }
    const [side, pointer] = position.before === undefined ? ["after", position.after!] as const : ["before", position.before] as const
    const field = `position.${side}`
    const id = pointerId(pointer)
    if (pointer.type === mover.type && id === mover.id) {
      return Effect.fail(new Errors.InvalidInput({ field, reason: `a ${mover.type} cannot be placed relative to itself` }))
    }
    const at = siblings.findIndex((s) => s.type === pointer.type && s.id === id)
    if (at < 0) {
      return Effect.fail(new Errors.InvalidInput({
        field,
        reason: `${pointer.type} ${JSON.stringify(id)} is not in the destination (the parent collection the ${mover.type} moves to)`
      }))
    }
    const index = side === "before" ? at : at + 1
    const lower = siblings[index - 1]?.position
    const upper = siblings[index]?.position
    const candidate = lower === undefined ? upper! - gap : upper === undefined ? lower + gap : (lower + upper) / 2
    if ((lower === undefined || candidate > lower) && (upper === undefined || candidate < upper)) {
      return Effect.succeed({ position: candidate, index, renumbered: [] })
    }
    const renumbered: Array<Sibling> = []
    siblings.forEach((sibling, i) => {
      const next = (i < index ? i + 1 : i + 2) * gap
      if (sibling.position !== next) renumbered.push({ ...sibling, position: next })
    })
    return Effect.succeed({ position: (index + 1) * gap, index, renumbered })
  })
