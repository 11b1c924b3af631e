/** Order among siblings: numeric positions with gaps; a move takes the midpoint or renumbers the siblings. */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"

export const gap = 1024

export interface Positioned {
  readonly id: string
  readonly position: number
}

/** A position after every sibling. */
export const endAfter = (siblings: ReadonlyArray<Positioned>): number =>
  siblings.reduce((max, s) => Math.max(max, s.position), 0) + gap

export interface Placement {
  readonly position: number
  /** Siblings whose position changes to make room. */
  readonly renumbered: ReadonlyArray<Positioned>
}

/** The position of a record inserted at `index` among `siblings` (in order, without it). */
export const placeAt = (siblings: ReadonlyArray<Positioned>, index: number): Placement => {
  const lower = siblings[index - 1]?.position
  const upper = siblings[index]?.position
  const candidate = lower === undefined
    ? (upper === undefined ? gap : upper - gap)
    : upper === undefined
    ? lower + gap
    : (lower + upper) / 2
  if ((lower === undefined || candidate > lower) && (upper === undefined || candidate < upper)) {
    return { position: candidate, renumbered: [] }
  }
  const renumbered: Array<Positioned> = []
  siblings.forEach((sibling, i) => {
    const next = (i < index ? i + 1 : i + 2) * gap
    if (sibling.position !== next) renumbered.push({ id: sibling.id, position: next })
  })
  return { position: (index + 1) * gap, renumbered }
}

/** Positions 1024 apart for `items` in the given order (only those that change). */
export const renumber = (items: ReadonlyArray<Positioned>): ReadonlyArray<Positioned> =>
  items.flatMap((item, i) => (item.position === (i + 1) * gap ? [] : [{ id: item.id, position: (i + 1) * gap }]))

/**
 * The index among `siblings` for a `{before|after}` position naming a sibling by id (after the
 * last sibling when neither is given, as GitBook moves to the end); an InvalidInput on `position.before`/`position.after` when it names the mover or no sibling.
 */
export const indexFor = (
  moverId: string,
  siblings: ReadonlyArray<Positioned>,
  position: { readonly before?: string | undefined; readonly after?: string | undefined },
  what: string
): Effect.Effect<number, Errors.InvalidInput> =>
  Effect.suspend(() => {
    if (position.before !== undefined && position.after !== undefined) {
      return Effect.fail(new Errors.InvalidInput({ field: "position", reason: "give either before or after, not both" }))
    }
    if (position.before === undefined && position.after === undefined) {
      return Effect.succeed(siblings.length)
    }
    const [side, id] = position.before === undefined ? ["after", position.after!] as const : ["before", position.before] as const
    const field = `position.${side}`
    if (id === moverId) return Effect.fail(new Errors.InvalidInput({ field, reason: `a ${what} cannot be placed relative to itself` }))
    const at = siblings.findIndex((s) => s.id === id)
    if (at < 0) return Effect.fail(new Errors.InvalidInput({ field, reason: `${JSON.stringify(id)} is not a ${what} beside this one` }))
    return Effect.succeed(side === "before" ? at : at + 1)
  })
