/** Checks of a site structure's fields (paths, conditions, icons, titles) and of updates' given fields. */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import * as Condition from "../Condition.ts"
import * as SiteGuard from "../SiteGuard.ts"

/** Checks a path: 1 to 100 characters, no slash (paths are URL segments). */
export const checkPath = (field: string, path: string) =>
  Effect.andThen(
    SiteGuard.checkLength(field, path, 1, 100),
    /[/?#\\]|^\.{1,2}$/.test(path) || path.trim() !== path
      ? Effect.fail(new Errors.InvalidInput({ field, reason: "must be a single URL segment (no '/', '?', '#', surrounding spaces, '.' or '..')" }))
      : Effect.void
  )

/** Checks a condition: 1 to 1024 characters of a valid expression. */
export const checkCondition = (field: string, condition: string) =>
  Effect.andThen(SiteGuard.checkLength(field, condition, 1, 1024), () => {
    const parsed = Condition.parse(condition)
    return parsed.ok ? Effect.void : Effect.fail(new Errors.InvalidInput({ field, reason: parsed.message }))
  })

export const checkIcon = (field: string, icon: string | null | undefined) =>
  icon == null ? Effect.void : SiteGuard.checkLength(field, icon, 0, 50)

/** A section title from a space's title (sections need 2 to 128 characters). */
export const sectionTitleOf = (title: string): string => {
  const trimmed = title.trim().slice(0, 128)
  return trimmed.length >= 2 ? trimmed : "Untitled"
}

/** The fields of an update that are given; absent ones stay as they are. */
export const given = <T, K extends keyof T>(update: T, keys: ReadonlyArray<K>): { [P in K]?: Exclude<T[P], undefined> } => {
  const out: Partial<Record<K, unknown>> = {}
  for (const key of keys) if (update[key] !== undefined) out[key] = update[key]
  return out as { [P in K]?: Exclude<T[P], undefined> }
}

/** An InvalidInput when another sibling already has the path. */
export const checkUniquePath = (path: string | undefined, others: ReadonlyArray<{ readonly path: string }>, what: string) =>
  path === undefined
    ? Effect.void
    : Effect.andThen(
      checkPath("path", path),
      others.some((o) => o.path === path)
        ? Effect.fail(new Errors.InvalidInput({ field: "path", reason: `${JSON.stringify(path)} is already the path of another ${what}` }))
        : Effect.void
    )

