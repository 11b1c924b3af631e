/**
 * Whether a page is still true: who owns it, when it was last verified and how often it should be,
 * read from the page's frontmatter under the `quire` key (GitBook keeps frontmatter keys it does
 * not know, so the key travels through Git sync and GitBook unchanged):
 *
 * ```yaml
 * quire:
 *   owners: [ada@example.com]   # members, by email or user id
 *   verified: 2026-11-01        # the day someone last checked the page
 *   verify-every: 90d           # days (a number, or 30d, 12w, 6m, 1y)
 * ```
 *
 * A page verified longer ago than its interval is stale; one with an interval and no date has
 * never been verified. A value of the wrong shape is reported, naming the key, and ignored.
 */
import { flattenPages, type PageNode, type Revision } from "../domain/Revision.ts"

/** The frontmatter key whose mapping holds a page's freshness. */
export const freshnessKey = "quire"

/** How a page stands. */
export type FreshnessState = "fresh" | "stale" | "unverified" | "untracked"

export interface PageFreshness {
  /** Owners as written: emails or user ids. */
  readonly owners: ReadonlyArray<string>
  /** The day it was last verified, `YYYY-MM-DD`. */
  readonly verified?: string | undefined
  /** How many days a verification holds. */
  readonly intervalDays?: number | undefined
  /** The day it is due again, `YYYY-MM-DD` (verified plus the interval). */
  readonly due?: string | undefined
  /**
   * `stale`: past its due day; `unverified`: it has an interval and no verification;
   * `fresh`: verified and not yet due (or verified with no interval); `untracked`: neither.
   */
  readonly state: FreshnessState
  /** What the frontmatter says wrongly, each naming its key. */
  readonly problems: ReadonlyArray<string>
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const units: Readonly<Record<string, number>> = { d: 1, w: 7, m: 30, y: 365 }

/** Days of an interval written as a number of days or `30d`, `12w`, `6m`, `1y`; undefined otherwise. */
export const intervalDaysOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 && value <= 3650 ? value : undefined
  if (typeof value !== "string") return undefined
  const match = /^\s*(\d{1,4})\s*([dwmy])?\s*$/i.exec(value)
  if (match === null) return undefined
  const days = Number(match[1]) * units[(match[2] ?? "d").toLowerCase()]!
  return days > 0 && days <= 3650 ? days : undefined
}

/** A `YYYY-MM-DD` day that exists, from a string or a date YAML may have made; undefined otherwise. */
export const dayOf = (value: unknown): string | undefined => {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === "string" ? value.trim() : undefined
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined
  const date = new Date(`${text}T00:00:00Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? undefined : text
}

const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

const ownersOf = (value: unknown, problems: Array<string>): ReadonlyArray<string> => {
  if (value === undefined || value === null) return []
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined
  if (list === undefined || !list.every((owner) => typeof owner === "string" && owner.trim() !== "" && owner.length <= 320)) {
    problems.push("`quire.owners` is not a list of emails or user ids; ignored")
    return []
  }
  return [...new Set(list.map((owner: string) => owner.trim()))].slice(0, 20)
}

/** A page's freshness on `today` (`YYYY-MM-DD`), from its frontmatter. */
export const pageFreshness = (frontmatter: Readonly<Record<string, unknown>> | undefined, today: string): PageFreshness => {
  const problems: Array<string> = []
  const given = frontmatter?.[freshnessKey]
  if (given === undefined || given === null) return { owners: [], state: "untracked", problems }
  if (!isMapping(given)) return { owners: [], state: "untracked", problems: ["`quire` is not a mapping; ignored"] }
  const owners = ownersOf(given["owners"], problems)
  const verified = dayOf(given["verified"])
  if (verified === undefined && given["verified"] !== undefined && given["verified"] !== null) {
    problems.push("`quire.verified` is not a day (YYYY-MM-DD); ignored")
  }
  const rawInterval = given["verify-every"]
  const intervalDays = intervalDaysOf(rawInterval)
  if (intervalDays === undefined && rawInterval !== undefined && rawInterval !== null) {
    problems.push("`quire.verify-every` is not a number of days, or 30d, 12w, 6m, 1y (at most ten years); ignored")
  }
  const due = verified !== undefined && intervalDays !== undefined ? addDays(verified, intervalDays) : undefined
  const state: FreshnessState = verified === undefined
    ? intervalDays === undefined ? "untracked" : "unverified"
    : due !== undefined && due < today ? "stale" : "fresh"
  return { owners, verified, intervalDays, due, state, problems }
}

/** The frontmatter of a page with its freshness set: `owners`, `verified` and `verify-every` replace what was there. */
export const withFreshness = (
  frontmatter: Readonly<Record<string, unknown>> | undefined,
  set: { readonly owners?: ReadonlyArray<string>; readonly verified?: string | null; readonly intervalDays?: number | null }
): Readonly<Record<string, unknown>> => {
  const current = isMapping(frontmatter?.[freshnessKey]) ? frontmatter[freshnessKey] as Record<string, unknown> : {}
  const next: Record<string, unknown> = { ...current }
  if (set.owners !== undefined) {
    if (set.owners.length === 0) delete next["owners"]
    else next["owners"] = [...set.owners]
  }
  if (set.verified !== undefined) {
    if (set.verified === null) delete next["verified"]
    else next["verified"] = set.verified
  }
  if (set.intervalDays !== undefined) {
    if (set.intervalDays === null) delete next["verify-every"]
    else next["verify-every"] = `${set.intervalDays}d`
  }
  const rest = Object.fromEntries(Object.entries(frontmatter ?? {}).filter(([key]) => key !== freshnessKey))
  return Object.keys(next).length === 0 ? rest : { ...rest, [freshnessKey]: next }
}

/** A document page of a revision with its path and freshness. */
export interface PageFreshnessEntry {
  readonly page: PageNode
  readonly path: string
  readonly freshness: PageFreshness
}

/** Every document page of `revision` with its freshness on `today`, in the tree's order. */
export const revisionFreshness = (revision: Revision, today: string): ReadonlyArray<PageFreshnessEntry> =>
  flattenPages(revision.pages)
    .filter(({ page }) => page.type === "document")
    .map(({ page, path }) => ({ page, path, freshness: pageFreshness(page.frontmatter, today) }))
